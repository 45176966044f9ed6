package index_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/models/offline"
)

// rankCorpus returns monthly and daily summaries and entries and notes for
// 400 days from 2024-01-01, each with a few random words, ids as the app
// makes them; plus an entry whose id does not tell its day.
func rankCorpus() docCorpus {
	words := strings.Fields("ledger invoice server rack boiler serial vet paprika telescope wifi chalet rent studio flag launch provider")
	rnd := rand.New(rand.NewPCG(5, 6))
	text := func() string {
		var b strings.Builder
		b.WriteString("daybook ")
		for range 3 + rnd.IntN(10) {
			b.WriteString(words[rnd.IntN(len(words))] + " ")
		}
		return b.String()
	}
	var docs docCorpus
	first := date.MustParse("2024-01-01")
	for i := range 400 {
		d := first.AddDays(i)
		docs = append(docs, index.Doc{ID: "day:" + d.String(), Level: date.LevelDay, Period: d.String(), Kind: "summary", Text: text(), Path: "summaries/" + d.String(), Line: 19, Start: d, End: d})
		for j := range 3 {
			docs = append(docs, index.Doc{ID: fmt.Sprintf("%sT09:%02d-abc", d, j), Level: date.LevelEntry, Period: d.String(), Kind: "decision", Text: text(), Path: "days/" + d.String(), Line: 3 + j, Start: d, End: d})
		}
		docs = append(docs, index.Doc{ID: fmt.Sprintf("%s:L%d", d, 9), Level: date.LevelEntry, Period: d.String(), Kind: index.KindText, Text: text(), Path: "days/" + d.String(), Line: 9, Start: d, End: d})
		if d.Day == 1 {
			m := d.MonthOf()
			docs = append(docs, index.Doc{ID: "month:" + m.String(), Level: date.LevelMonth, Period: m.String(), Kind: "summary", Text: text(), Path: "summaries/" + m.String(), Line: 19, Start: m.First(), End: m.Last()})
		}
	}
	// An entry whose id does not tell its day: read from the index.
	d := date.MustParse("2024-03-09")
	docs = append(docs, index.Doc{ID: "extra-entry", Level: date.LevelEntry, Period: d.String(), Kind: "note", Text: "daybook ledger invoice wifi", Path: "y", Line: 1, Start: d, End: d})
	return docs
}

// TestRankEachAsRankPerParent checks that RankEach's one search gives each
// parent exactly the hits, order and scores of a Rank inside that parent
// alone, and that Rank gives Search's hits without their stored fields.
func TestRankEachAsRankPerParent(t *testing.T) {
	ctx := context.Background()
	x := open(t, t.TempDir(), offline.NewEmbedder())
	defer x.Close()
	docs := rankCorpus()
	if _, err := x.Sync(ctx, false, docs); err != nil {
		t.Fatal(err)
	}
	period := map[string]string{}
	for _, d := range docs {
		period[d.ID] = d.Period
	}
	r := date.Range{From: date.MustParse("2024-03-10"), To: date.MustParse("2024-09-20")}
	for _, q := range []index.Query{
		{Text: "ledger invoice", Level: date.LevelMonth, Parents: []string{"2024", "2025"}, K: 10},
		{Text: "wifi", Level: date.LevelMonth, Parents: []string{"2024", "2025"}, Range: r, K: 3},
		{Text: "rent studio", Level: date.LevelDay, Parents: []string{"2024-02", "2024-05", "2024-11"}, K: 10},
		{Text: "ledger wifi", Level: date.LevelDay, Parents: []string{"2024-03", "2024-04", "2024-09"}, Range: r, K: 5},
		{Text: "boiler serial", Level: date.LevelDay, Parents: []string{"2024-01", "2024-02", "2024-03", "2024-04", "2024-05", "2024-06", "2024-07", "2024-08", "2024-09"}, K: 10},
		// Every document says "daybook": each month's every day ranks.
		{Text: "daybook", Level: date.LevelDay, Parents: []string{"2024-03", "2024-05"}, K: 40},
		// Too many parents to name their children by id.
		{Text: "ledger wifi", Level: date.LevelDay, Parents: []string{"2024-01", "2024-02", "2024-03", "2024-04", "2024-05", "2024-06", "2024-07", "2024-08", "2024-09", "2024-10", "2024-11", "2024-12", "2025-01"}, K: 5},
		{Text: "vet paprika", Level: date.LevelEntry, Parents: []string{"2024-02-03", "2024-05-06", "2024-07-01"}, K: 4},
	} {
		each, err := x.RankEach(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, p := range q.Parents {
			one := q
			one.Parents = []string{p}
			want, err := x.Search(ctx, one)
			if err != nil {
				t.Fatal(err)
			}
			got, err := x.Rank(ctx, one)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) || len(each[p]) != len(want) {
				t.Fatalf("%q in %s: Rank %d hits, RankEach %d, Search %d", q.Text, p, len(got), len(each[p]), len(want))
			}
			for i, w := range want {
				g, e := got[i], each[p][i]
				if g.ID != w.ID || g.BM25 != w.BM25 || g.Period != period[w.ID] || g.Level != q.Level || g.Text != "" {
					t.Errorf("%q in %s, hit %d: Rank %+v, Search %s %v", q.Text, p, i, g, w.ID, w.BM25)
				}
				if e.ID != w.ID || e.BM25 != w.BM25 || e.Period != g.Period {
					t.Errorf("%q in %s, hit %d: RankEach %s %v %s, Search %s %v %s", q.Text, p, i, e.ID, e.BM25, e.Period, w.ID, w.BM25, g.Period)
				}
			}
			total += len(want)
		}
		if total == 0 {
			t.Errorf("%q at %s: no hits at all", q.Text, q.Level)
		}
	}
}

// TestLoadAsSearch checks that Load reads the fields and spans Search gives,
// and the fields alone (no spans) for the plain ids; ids not in the index
// are left out.
func TestLoadAsSearch(t *testing.T) {
	ctx := context.Background()
	x := open(t, t.TempDir(), offline.NewEmbedder())
	defer x.Close()
	if _, err := x.Sync(ctx, false, rankCorpus()); err != nil {
		t.Fatal(err)
	}
	for _, level := range []date.Level{date.LevelMonth, date.LevelDay, date.LevelEntry} {
		q := index.Query{Text: "server rack", Level: level, K: 8}
		want, err := x.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, h := range want {
			ids = append(ids, h.ID)
		}
		if len(ids) < 4 {
			t.Fatalf("%s: %d hits", level, len(ids))
		}
		got, err := x.Load(ctx, q.Text, append(ids[:2:2], "gone"), append(ids[2:len(ids):len(ids)], "gone too"))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(ids) {
			t.Fatalf("%s: Load read %d documents, want %d", level, len(got), len(ids))
		}
		for i, w := range want {
			g := got[w.ID]
			w.BM25 = 0
			if i >= 2 {
				w.Spans = nil // plain: no spans
			} else if len(w.Spans) == 0 {
				t.Errorf("%s: %s has no spans", level, w.ID)
			}
			if fmt.Sprint(g) != fmt.Sprint(w) {
				t.Errorf("%s: Load %+v\nSearch %+v", level, g, w)
			}
		}
	}
}

// TestHeads checks that Heads names documents from their ids where the ids
// tell, and from the index where they do not.
func TestHeads(t *testing.T) {
	ctx := context.Background()
	x := open(t, t.TempDir(), offline.NewEmbedder())
	defer x.Close()
	if _, err := x.Sync(ctx, false, rankCorpus()); err != nil {
		t.Fatal(err)
	}
	got, err := x.Heads(ctx, date.LevelEntry, []string{"2024-03-09T09:01-abc", "extra-entry", "not-there"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]index.Hit{
		"2024-03-09T09:01-abc": {ID: "2024-03-09T09:01-abc", Level: date.LevelEntry, Period: "2024-03-09"},
		"extra-entry":          {ID: "extra-entry", Level: date.LevelEntry, Period: "2024-03-09"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Heads = %+v, want %+v", got, want)
	}
}

func TestPeriodOfID(t *testing.T) {
	for _, tc := range []struct {
		level    date.Level
		id, want string
	}{
		{date.LevelYear, "year:2025", "2025"},
		{date.LevelMonth, "month:2025-02", "2025-02"},
		{date.LevelDay, "day:2025-02-13", "2025-02-13"},
		{date.LevelEntry, "2025-02-13T09:30-cb4329cdde6c", "2025-02-13"},
		{date.LevelEntry, "2025-02-13:L12", "2025-02-13"},
		{date.LevelDay, "month:2025-02", ""},
		{date.LevelMonth, "month:2025-13", ""},
		{date.LevelMonth, "month:2025-2x", ""},
		{date.LevelDay, "day:2025-02-30", ""},
		{date.LevelYear, "year:25", ""},
		{date.LevelEntry, "2025-02-13", ""},
		{date.LevelEntry, "2025-02-13-x", ""},
		{date.LevelEntry, "2025-02-30T09:30-x", ""},
		{date.LevelEntry, "extra", ""},
		{"week", "week:2025-07", ""},
	} {
		got, ok := index.PeriodOfID(tc.level, tc.id)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("PeriodOfID(%s, %q) = %q, %v; want %q", tc.level, tc.id, got, ok, tc.want)
		}
	}
}
