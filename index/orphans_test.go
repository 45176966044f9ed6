package index_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/models/offline"
)

// TestOrphansFollowWrites checks that Orphans and Count, cached between
// writes, change as soon as a summary comes or goes.
func TestOrphansFollowWrites(t *testing.T) {
	ctx := context.Background()
	x := open(t, t.TempDir(), offline.NewEmbedder())
	defer x.Close()
	// A document's Path is its source's (docCorpus: docs/ID): what a
	// removed source's documents are found by.
	day := func(s string) index.Doc {
		d := date.MustParse(s)
		return index.Doc{ID: "day:" + s, Level: date.LevelDay, Period: s, Kind: "summary", Text: "summary of " + s, Path: "docs/day:" + s, Start: d, End: d}
	}
	entry := func(s string) index.Doc {
		d := date.MustParse(s)
		return index.Doc{ID: s + "T09:00-x", Level: date.LevelEntry, Period: s, Kind: "note", Text: "kayak on " + s, Path: "docs/" + s + "T09:00-x", Start: d, End: d}
	}
	month := func(s string) index.Doc {
		m, _ := date.ParseMonth(s)
		return index.Doc{ID: "month:" + s, Level: date.LevelMonth, Period: s, Kind: "summary", Text: "month " + s, Path: "docs/month:" + s, Start: m.First(), End: m.Last()}
	}
	check := func(step string, level date.Level, r date.Range, want ...string) {
		t.Helper()
		if got := x.Orphans(level, r); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: Orphans(%s, %v) = %v, want %v", step, level, r, got, want)
		}
	}
	counts := func(step string, r date.Range, want ...uint64) {
		t.Helper()
		for i, level := range []date.Level{date.LevelMonth, date.LevelDay, date.LevelEntry} {
			for range 2 { // the second from the cache
				if n, err := x.Count(ctx, level, r); err != nil || n != want[i] {
					t.Errorf("%s: Count(%s, %v) = %d, %v; want %d", step, level, r, n, err, want[i])
				}
			}
		}
	}
	march := date.Range{From: date.MustParse("2026-03-01"), To: date.MustParse("2026-03-31")}
	docs := docCorpus{entry("2026-02-27"), entry("2026-03-01"), entry("2026-03-02"), day("2026-03-01")}
	if _, err := x.Sync(ctx, false, docs); err != nil {
		t.Fatal(err)
	}
	check("first", date.LevelEntry, date.Range{}, "2026-03-02", "2026-02-27")
	check("first", date.LevelEntry, march, "2026-03-02")
	check("first", date.LevelDay, date.Range{}, "2026-03")
	check("first", date.LevelMonth, date.Range{})
	counts("first", date.Range{}, 0, 1, 3)
	counts("first", march, 0, 1, 2)

	docs = append(docs, day("2026-03-02"), month("2026-03"))
	if _, err := x.Sync(ctx, false, docs); err != nil {
		t.Fatal(err)
	}
	check("summaries added", date.LevelEntry, date.Range{}, "2026-02-27")
	check("summaries added", date.LevelEntry, march)
	check("summaries added", date.LevelDay, date.Range{})
	check("summaries added", date.LevelMonth, date.Range{}, "2026")
	counts("summaries added", date.Range{}, 1, 2, 3)
	counts("summaries added", march, 1, 2, 2)

	docs = docCorpus{entry("2026-02-27"), entry("2026-03-01"), entry("2026-03-02"), day("2026-03-02"), month("2026-03")}
	if _, err := x.Sync(ctx, false, docs); err != nil {
		t.Fatal(err)
	}
	check("a summary removed", date.LevelEntry, march, "2026-03-01")
	counts("a summary removed", date.Range{}, 1, 1, 3)
	check("year", date.LevelYear, date.Range{})
}
