package merge

import (
	"fmt"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles"
)

// BenchmarkAppend compares an append through the Keeper (base recorded on
// disk) with a bare dayfiles append, one entry at a time into a day that
// grows to b.N entries: report the ratio of the two in the same run.
func BenchmarkAppend(b *testing.B) {
	at := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	b.Run("dayfiles", func(b *testing.B) {
		root := b.TempDir()
		for i := 0; b.Loop(); i++ {
			if _, err := dayfiles.Append(root, time.UTC, dayfiles.NewEntry{At: at, Text: fmt.Sprintf("entry %d", i)}); err != nil {
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
