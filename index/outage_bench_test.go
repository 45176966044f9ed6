package index_test

import (
	"context"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/models/ollama/ollamatest"
	"github.com/daybook/daybook/internal/tooling/gen"
)

// BenchmarkOllamaDown times what a daemon start and a query cost while
// Ollama is down, on a generated year indexed with Ollama before: opening
// the index (the dimension from meta.json, no request waits), and one
// query (no query vector: BM25 alone). It also reports how long filling in
// the vectors of a year indexed during an outage takes against the fake
// server, which is the index's own cost, not a model's.
func BenchmarkOllamaDown(b *testing.B) {
	ctx := context.Background()
	root := b.TempDir()
	gs, err := gen.Write(root, gen.Options{Years: 1, Seed: 1, End: date.MustParse("2025-12-31")})
	if err != nil {
		b.Fatal(err)
	}
	srv := ollamatest.New(b, "nomic-embed-text")
	srv.SetDim(768)
	c := newClock(time.Date(2026, 1, 10, 9, 0, 0, 0, time.UTC))
	emb := ollamaEmbedder(b, srv.URL, "nomic-embed-text", c)
	x, err := index.Open(ctx, root+"/index", index.Options{Embedder: emb, Now: c.Now})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := x.Sync(ctx, false, index.DayFiles{Root: root}); err != nil {
		b.Fatal(err)
	}
	x.Close()
	t0 := time.Now()
	if x, err = index.Open(ctx, root+"/index", index.Options{Embedder: emb, Now: c.Now}); err != nil {
		b.Fatal(err)
	}
	b.Logf("for comparison, open with ollama up: %s", time.Since(t0).Round(time.Millisecond))
	x.Close()
	srv.Down()

	var open, query time.Duration
	for b.Loop() {
		t0 := time.Now()
		x, err := index.Open(ctx, root+"/index", index.Options{Embedder: ollamaEmbedder(b, srv.URL, "nomic-embed-text", c), Now: c.Now})
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		vec, err := x.EmbedQuery(ctx, "kayak trip")
		if err != nil || vec != nil {
			b.Fatalf("query vector %v, %v", vec, err)
		}
		if _, err := x.Search(ctx, index.Query{Text: "kayak trip", Level: date.LevelEntry, K: 10}); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		x.Close()
		open += t1.Sub(t0)
		query += t2.Sub(t1)
	}
	b.ReportMetric(float64(open.Microseconds())/float64(b.N)/1000, "ms-open")
	b.ReportMetric(float64(query.Microseconds())/float64(b.N)/1000, "ms-query")
	b.Logf("%d entries: open %s, query %s with ollama down", gs.Entries, open/time.Duration(b.N), query/time.Duration(b.N))
}

// BenchmarkFillVectors indexes a generated year with Ollama down, then
// times filling in every vector once it answers (768 dimensions).
func BenchmarkFillVectors(b *testing.B) {
	ctx := context.Background()
	root := b.TempDir()
	if _, err := gen.Write(root, gen.Options{Years: 1, Seed: 1, End: date.MustParse("2025-12-31")}); err != nil {
		b.Fatal(err)
	}
	srv := ollamatest.NewDown(b, "nomic-embed-text")
	srv.SetDim(768)
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		srv.Down()
		c := newClock(time.Date(2026, 1, 10, 9, 0, 0, 0, time.UTC))
		dir := root + "/index-" + string(rune('a'+i%26)) + time.Now().Format("150405.000000000")
		x, err := index.Open(ctx, dir, index.Options{Embedder: ollamaEmbedder(b, srv.URL, "nomic-embed-text", c), Now: c.Now})
		if err != nil {
			b.Fatal(err)
		}
		st, err := x.Sync(ctx, false, index.DayFiles{Root: root})
		if err != nil {
			b.Fatal(err)
		}
		srv.Up(b)
		c.Add(3 * time.Minute)
		b.StartTimer()
		t0 := time.Now()
		fs, err := x.FillVectors(ctx)
		if err != nil || fs.Filled != st.Docs {
			b.Fatalf("filled %+v of %d: %v", fs, st.Docs, err)
		}
		b.ReportMetric(float64(fs.Filled)/time.Since(t0).Seconds(), "vectors/s")
		b.StopTimer()
		x.Close()
		b.StartTimer()
	}
}
