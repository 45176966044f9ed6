package index

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/models/offline"
)

// docList is a corpus of ready-made documents, one source per document.
type docList []Doc

func (c docList) List(context.Context) ([]Source, error) {
	var out []Source
	for _, d := range c {
		out = append(out, Source{Path: "docs/" + d.ID, Stamp: "1"})
	}
	return out, nil
}

func (c docList) Load(_ context.Context, s Source) (Source, error) {
	for _, d := range c {
		if "docs/"+d.ID == s.Path {
			s.Docs = []Doc{d}
		}
	}
	return s, nil
}

func (c docList) Stat(string) (Source, bool) { return Source{}, false }

// TestSearchScoresAsBooleanFilter checks that the conjunction Search runs
// ranks and scores exactly as the text query under bleve's boolean filter
// does: the filter clauses weigh nothing.
func TestSearchScoresAsBooleanFilter(t *testing.T) {
	words := strings.Fields("ledger invoice server rack boiler serial vet paprika telescope wifi chalet rent studio flag launch provider")
	rnd := rand.New(rand.NewPCG(3, 4))
	text := func() string {
		var b strings.Builder
		for range 3 + rnd.IntN(12) {
			b.WriteString(words[rnd.IntN(len(words))] + " ")
		}
		return b.String()
	}
	var docs docList
	first := date.MustParse("2024-01-01")
	for i := range 400 {
		d := first.AddDays(i)
		docs = append(docs, Doc{ID: "day:" + d.String(), Level: date.LevelDay, Period: d.String(), Kind: "summary", Text: text(), Start: d, End: d})
		for j := range 4 {
			docs = append(docs, Doc{ID: fmt.Sprintf("%s:e%d", d, j), Level: date.LevelEntry, Period: d.String(), Kind: "note", Text: text(), Start: d, End: d})
		}
		if d.Day == 1 {
			m := d.MonthOf()
			docs = append(docs, Doc{ID: "month:" + m.String(), Level: date.LevelMonth, Period: m.String(), Kind: "summary", Text: text(), Start: m.First(), End: m.Last()})
		}
	}
	ctx := context.Background()
	x, err := Open(ctx, filepath.Join(t.TempDir(), "index"), Options{Embedder: offline.NewEmbedder()})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if _, err := x.Sync(ctx, false, docs); err != nil {
		t.Fatal(err)
	}
	r := date.Range{From: date.MustParse("2024-03-10"), To: date.MustParse("2024-09-20")}
	for _, q := range []Query{
		{Text: "server rack", Level: date.LevelEntry},
		{Text: "boiler serial", Level: date.LevelEntry, Range: r},
		{Text: "vet paprika telescope", Level: date.LevelEntry, Parents: []string{"2024-02-03", "2024-05-06", "2024-07-01"}},
		{Text: "wifi", Level: date.LevelDay, Parents: []string{"2024-03", "2024-04"}, Range: r},
		{Text: "ledger invoice", Level: date.LevelDay},
		{Text: "rent studio", Level: date.LevelMonth, Parents: []string{"2024"}, Range: r},
	} {
		q.K = 50
		ref := textQuery(q.Text)
		bq := bleve.NewBooleanQuery()
		bq.AddMust(ref)
		bq.AddFilter(filter(q))
		want, err := x.bl.SearchInContext(ctx, bleve.NewSearchRequestOptions(bq, q.K, 0, false))
		if err != nil {
			t.Fatal(err)
		}
		got, err := x.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if len(want.Hits) == 0 || len(got) != len(want.Hits) {
			t.Fatalf("%q at %s: %d hits, the boolean filter has %d", q.Text, q.Level, len(got), len(want.Hits))
		}
		for i, h := range want.Hits {
			if got[i].ID != h.ID || math.Abs(got[i].BM25-h.Score) > 1e-12 {
				t.Errorf("%q at %s, hit %d: %s %.15f, the boolean filter has %s %.15f", q.Text, q.Level, i, got[i].ID, got[i].BM25, h.ID, h.Score)
			}
		}
	}
}
