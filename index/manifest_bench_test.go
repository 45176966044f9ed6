package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/models/offline"
)

// firstManyDay is the first day manyDays writes.
var firstManyDay = date.MustParse("2016-01-01")

// manyDays writes n day files of one entry each, from firstManyDay on, and
// returns their paths relative to root.
func manyDays(tb testing.TB, root string, n int) []string {
	tb.Helper()
	rels := make([]string, n)
	for i := range n {
		d := firstManyDay.AddDays(i)
		path := dayfiles.Path(root, d)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		text := fmt.Sprintf("# %s %s\n\n- 09:00 note %d of the corpus\n", d, d.Weekday(), i)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
		rels[i] = dayfiles.RelPath(d)
	}
	return rels
}

// appendNote appends one entry to the day file rel under root, as the
// memory proxy does for a chat turn.
func appendNote(tb testing.TB, root, rel string, n int) {
	tb.Helper()
	f, err := os.OpenFile(filepath.Join(root, filepath.FromSlash(rel)), os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := fmt.Fprintf(f, "- %02d:%02d turn %d of the chat\n", 10+n/60%12, n%60, n); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
}

// builtCorpus writes n day files under a temp dir and builds the index of
// them: the index is open, its folder under root.
func builtCorpus(tb testing.TB, n int) (root string, rels []string, x *Index) {
	tb.Helper()
	root = tb.TempDir()
	rels, x = buildIn(tb, root, n)
	return root, rels, x
}

// buildIn is builtCorpus in root.
func buildIn(tb testing.TB, root string, n int) ([]string, *Index) {
	tb.Helper()
	rels := manyDays(tb, root, n)
	x, err := Open(context.Background(), filepath.Join(root, "index"), Options{Embedder: offline.NewEmbedder()})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { x.Close() })
	if _, err := x.Sync(context.Background(), false, DayFiles{Root: root}); err != nil {
		tb.Fatal(err)
	}
	return rels, x
}

// BenchmarkAppendOnBigCorpus times what one chat turn of the memory proxy
// costs the index of a 3,000-day corpus: one entry appended to a day file
// and SyncPaths of that file. "same" appends to one day (a day of chats),
// "spread" to another day each time (the worst case for the manifest).
func BenchmarkAppendOnBigCorpus(b *testing.B) {
	const days = 3000
	for _, spread := range []bool{false, true} {
		name := "same"
		if spread {
			name = "spread"
		}
		b.Run(name, func(b *testing.B) {
			root, rels, x := builtCorpus(b, days)
			ctx := context.Background()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				rel := rels[len(rels)-1]
				if spread {
					rel = rels[i%len(rels)]
				}
				appendNote(b, root, rel, i)
				if _, err := x.SyncPaths(ctx, []string{rel}, DayFiles{Root: root}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
