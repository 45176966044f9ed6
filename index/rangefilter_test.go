package index_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/models/offline"
)

// docCorpus is a corpus of ready-made documents, one source per document.
type docCorpus []index.Doc

func (c docCorpus) List(context.Context) ([]index.Source, error) {
	var out []index.Source
	for _, d := range c {
		out = append(out, index.Source{Path: "docs/" + d.ID, Stamp: "1"})
	}
	return out, nil
}

func (c docCorpus) Load(_ context.Context, s index.Source) (index.Source, error) {
	for _, d := range c {
		if "docs/"+d.ID == s.Path {
			s.Docs = []index.Doc{d}
		}
	}
	return s, nil
}

func (c docCorpus) Stat(string) (index.Source, bool) { return index.Source{}, false }

// pyramid returns a year, month, day and entry document for every day from
// 2023-11-20 to 2025-02-10, each saying "ledger".
func pyramid() docCorpus {
	var out docCorpus
	first, last := date.MustParse("2023-11-20"), date.MustParse("2025-02-10")
	seen := map[string]bool{}
	add := func(level date.Level, period string, r date.Range) {
		id := string(level) + ":" + period
		if seen[id] {
			return
		}
		seen[id] = true
		out = append(out, index.Doc{ID: id, Level: level, Period: period, Kind: "summary",
			Text: "ledger " + period, Path: "summaries/" + period, Line: 1, Start: r.From, End: r.To})
	}
	for d := first; !d.After(last); d = d.AddDays(1) {
		add(date.LevelYear, fmt.Sprint(d.Year), date.YearRange(d.Year))
		add(date.LevelMonth, d.MonthOf().String(), d.MonthOf().Range())
		add(date.LevelDay, d.String(), date.Range{From: d, To: d})
		out = append(out, index.Doc{ID: d.String() + ":e", Level: date.LevelEntry, Period: d.String(), Kind: "note",
			Text: "ledger entry", Path: "days/" + d.String(), Line: 3, Start: d, End: d})
	}
	return out
}

// TestRangeFilterMatchesOverlap checks the range filter against the plain
// overlap of each document's dates, on ranges with whole and partial years
// and months at either end, open sides, and ranges outside the index.
func TestRangeFilterMatchesOverlap(t *testing.T) {
	docs := pyramid()
	x := open(t, t.TempDir(), offline.NewEmbedder())
	defer x.Close()
	if _, err := x.Sync(context.Background(), false, docs); err != nil {
		t.Fatal(err)
	}
	ranges := []date.Range{
		{From: date.MustParse("2024-03-01"), To: date.MustParse("2024-03-31")},
		{From: date.MustParse("2024-03-07"), To: date.MustParse("2024-03-20")},
		{From: date.MustParse("2024-01-01"), To: date.MustParse("2024-12-31")},
		{From: date.MustParse("2023-12-31"), To: date.MustParse("2025-01-01")},
		{From: date.MustParse("2023-12-15"), To: date.MustParse("2024-02-10")},
		{To: date.MustParse("2023-12-31")},
		{To: date.MustParse("2024-06-15")},
		{From: date.MustParse("2024-06-15")},
		{From: date.MustParse("2025-01-01")},
		{From: date.MustParse("2026-01-01")},
		{To: date.MustParse("2020-05-05")},
		{From: date.MustParse("2024-02-29"), To: date.MustParse("2024-02-29")},
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	base := date.MustParse("2023-10-01")
	for range 40 {
		a, b := base.AddDays(rnd.IntN(560)), base.AddDays(rnd.IntN(560))
		if b.Before(a) {
			a, b = b, a
		}
		r := date.Range{From: a, To: b}
		switch rnd.IntN(4) {
		case 0:
			r.From = date.Date{}
		case 1:
			r.To = date.Date{}
		}
		ranges = append(ranges, r)
	}
	ctx := context.Background()
	for _, r := range ranges {
		for _, level := range []date.Level{date.LevelYear, date.LevelMonth, date.LevelDay, date.LevelEntry} {
			var want []string
			for _, d := range docs {
				if d.Level == level && r.Overlaps(date.Range{From: d.Start, To: d.End}) {
					want = append(want, d.ID)
				}
			}
			hits, err := x.Search(ctx, index.Query{Text: "ledger", Level: level, Range: r, K: len(docs)})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range hits {
				got = append(got, h.ID)
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("%s in %s: %d documents, want %d", level, r, len(got), len(want))
			}
			n, err := x.Count(ctx, level, r)
			if err != nil {
				t.Fatal(err)
			}
			if int(n) != len(want) {
				t.Errorf("Count(%s, %s) = %d, want %d", level, r, n, len(want))
			}
		}
	}
}

// TestRangeFilterInsideCoveredParents: a parent that lies inside the range
// needs no range filter, one that lies across its edge keeps it.
func TestRangeFilterInsideCoveredParents(t *testing.T) {
	x := open(t, t.TempDir(), offline.NewEmbedder())
	defer x.Close()
	if _, err := x.Sync(context.Background(), false, pyramid()); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	r := date.Range{From: date.MustParse("2024-03-10"), To: date.MustParse("2024-04-30")}
	for _, tc := range []struct {
		parents []string
		want    int
	}{
		{[]string{"2024-04"}, 30},
		{[]string{"2024-03"}, 22},
		{[]string{"2024-03", "2024-04"}, 52},
		{[]string{"2024-05"}, 0},
	} {
		hits, err := x.Search(ctx, index.Query{Text: "ledger", Level: date.LevelDay, Parents: tc.parents, Range: r, K: 100})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != tc.want {
			t.Errorf("days of %v in %s: %d, want %d", tc.parents, r, len(hits), tc.want)
		}
	}
}
