package dayfiles

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"
)

// benchDay returns a day file of n entries as Append writes them, a quarter
// of them with a second line.
func benchDay(n int) []byte {
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	var b strings.Builder
	b.WriteString(Title(goldenDay) + "\n\n")
	for i := range n {
		b.WriteString(checkedEntry(rng, "b", i).Format(time.UTC))
	}
	return []byte(b.String())
}

// BenchmarkAppendText is the in-memory part of an append to a day of 10 and
// of 4,000 entries: choosing the separator and checking that the new entry
// reads back where it was put. Their ratio is what a big day costs.
func BenchmarkAppendText(b *testing.B) {
	for _, n := range []int{10, 4000} {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			old := benchDay(n)
			chunk := NewEntry{At: goldenDay.At(23, 0, time.UTC), Kind: KindFact, Text: "The staging database moved #infra"}.Format(time.UTC)
			b.SetBytes(int64(len(old)))
			for b.Loop() {
				if _, _, err := appendText("bench.md", goldenDay, old, chunk, 1); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAppendDay appends one entry to a day file of 10 and of 4,000
// entries through Append (lock, read, check, write, fsync), cutting the file
// back to its first size after each append so that every one sees the same
// day.
func BenchmarkAppendDay(b *testing.B) {
	for _, n := range []int{10, 4000} {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			root := b.TempDir()
			path := Path(root, goldenDay)
			old := benchDay(n)
			if err := os.MkdirAll(strings.TrimSuffix(path, "22.md"), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(path, old, 0o644); err != nil {
				b.Fatal(err)
			}
			e := NewEntry{At: goldenDay.At(23, 0, time.UTC), Kind: KindFact, Text: "The staging database moved #infra"}
			for b.Loop() {
				if _, err := Append(root, time.UTC, e); err != nil {
					b.Fatal(err)
				}
				if err := os.Truncate(path, int64(len(old))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
