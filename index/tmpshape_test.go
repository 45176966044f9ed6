package index

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/daybook/daybook/offline"
	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"
)

func TestTmpShapes(t *testing.T) {
	dir := os.Getenv("TMP_INDEX")
	if dir == "" {
		t.Skip()
	}
	ctx := context.Background()
	x, err := Open(ctx, dir, Options{Embedder: offline.NewEmbedder()})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	text := "where is the build farm master server physically"
	var days []string
	for d := 1; d <= 28; d += 2 {
		days = append(days, "2021-01-"+[]string{"01", "03", "05", "07", "09", "11", "13", "15", "17", "19", "21", "23", "25", "27"}[d/2])
	}
	shapes := map[string]Query{
		"year":       {Text: text, Level: LevelYear, K: 10},
		"month1":     {Text: text, Level: LevelMonth, Parents: []string{"2021"}, K: 10},
		"day1":       {Text: text, Level: LevelDay, Parents: []string{"2021-01"}, K: 10},
		"day3":       {Text: text, Level: LevelDay, Parents: []string{"2021-01", "2022-05", "2023-07"}, K: 100},
		"entrydays":  {Text: text, Level: LevelEntry, Parents: days, K: 20},
		"entryall":   {Text: text, Level: LevelEntry, K: 20},
		"entryall100":   {Text: text, Level: LevelEntry, K: 100},
	}
	for name, q := range shapes {
		x.Search(ctx, q)
		start := time.Now()
		n := 50
		var hits int
		for range n {
			h, _ := x.Search(ctx, q)
			hits = len(h)
		}
		t.Logf("%-12s %8v  hits %d", name, time.Since(start)/time.Duration(n), hits)
	}
	for name, mk := range map[string]func() query.Query{
		"matchonly": func() query.Query { m := bleve.NewMatchQuery(text); m.SetField("text"); return m },
		"conjbare": func() query.Query { return searchQuery(Query{Text: text, Level: LevelEntry}) },
		"mustnot": func() query.Query {
			m := bleve.NewMatchQuery(text); m.SetField("text")
			b := bleve.NewBooleanQuery(); b.AddMust(m)
			for _, l := range []string{"year", "month", "day"} { tq := bleve.NewTermQuery(l); tq.SetField("level"); b.AddMustNot(tq) }
			return b
		},
	} {
		start := time.Now()
		var total uint64
		for range 50 {
			req := bleve.NewSearchRequestOptions(mk(), 20, 0, false)
			if os.Getenv("TMP_FIELDS") != "" {
				req.Fields = storedFields
				req.IncludeLocations = true
			}
			res, _ := x.bl.SearchInContext(ctx, req)
			total = res.Total
		}
		t.Logf("%-12s %8v total %d", name, time.Since(start)/50, total)
	}
	start := time.Now()
	for range 50 {
		x.Count(ctx, LevelYear, q0.Range)
	}
	t.Logf("count %v", time.Since(start)/50)
}

var q0 Query
