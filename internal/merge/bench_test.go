package merge

import (
	"fmt"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/internal/daybooktest"
)

// BenchmarkAppend compares an append through the Keeper (base recorded on
// disk) with a bare dayfiles append, one entry at a time into a day that
// grows to b.N entries: report the ratio of the two in the same run.
func BenchmarkAppend(b *testing.B) {
	at := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	b.Run("dayfiles", func(b *testing.B) {
		root := b.TempDir()
		for i := 0; b.Loop(); i++ {
			if _, err := daybooktest.Append(root, time.UTC, dayfiles.NewEntry{At: at, Text: fmt.Sprintf("entry %d", i)}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("keeper", func(b *testing.B) {
		root := b.TempDir()
		k := New(root, Options{Loc: func() *time.Location { return time.UTC }})
		defer k.Close()
		for i := 0; b.Loop(); i++ {
			if _, err := k.Append([]dayfiles.NewEntry{{At: at, Text: fmt.Sprintf("entry %d", i)}}, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkAppendBigDay is one append through the Keeper to a day that
// already holds 100 and 10,000 entries, against the same append through
// dayfiles alone: what the base adds to an append is the difference of the
// two, and it must not grow with the day (a 9,192-entry day's base was
// rewritten whole, 1.5 MB, on every append).
func BenchmarkAppendBigDay(b *testing.B) {
	at := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	seed := func(n int) []dayfiles.NewEntry {
		es := make([]dayfiles.NewEntry, n)
		for i := range es {
			es[i] = dayfiles.NewEntry{At: at.Add(time.Duration(i%600) * time.Minute),
				Text: fmt.Sprintf("seeded entry %d about the garden, the deploy and the weekly review", i)}
		}
		return es
	}
	for _, n := range []int{100, 10000} {
		b.Run(fmt.Sprintf("entries=%d/dayfiles", n), func(b *testing.B) {
			root := b.TempDir()
			if _, err := daybooktest.AppendMany(root, time.UTC, seed(n)); err != nil {
				b.Fatal(err)
			}
			for i := 0; b.Loop(); i++ {
				if _, err := daybooktest.Append(root, time.UTC, dayfiles.NewEntry{At: at.Add(14 * time.Hour), Text: fmt.Sprintf("entry %d", i)}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("entries=%d/keeper", n), func(b *testing.B) {
			root := b.TempDir()
			k := New(root, Options{Loc: func() *time.Location { return time.UTC }})
			defer k.Close()
			if _, err := k.Append(seed(n), nil); err != nil {
				b.Fatal(err)
			}
			for i := 0; b.Loop(); i++ {
				if _, err := k.Append([]dayfiles.NewEntry{{At: at.Add(14 * time.Hour), Text: fmt.Sprintf("entry %d", i)}}, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
