package recall_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/models/offline"
	"github.com/daybook/daybook/internal/tooling/gen"
	"github.com/daybook/daybook/recall"
)

// corpus is a generated, consolidated and indexed data dir shared by the
// benchmarks of one run.
type corpus struct {
	root  string
	x     *index.Index
	facts []gen.Fact
	build time.Duration
	now   time.Time
}

var (
	corpusOnce sync.Once
	shared     *corpus
	sharedErr  error
)

// summaryCorpus indexes summary files as the app does, through consolidate.
type summaryCorpus struct{ root string }

func (c summaryCorpus) List(ctx context.Context) ([]index.Source, error) {
	files, err := consolidate.List(c.root, "", date.Range{})
	var out []index.Source
	for _, f := range files {
		out = append(out, index.Source{Path: f.Rel, Stamp: index.Stamp(f.Size, f.ModTime.UnixNano())})
	}
	return out, err
}
func (c summaryCorpus) Stat(string) (index.Source, bool) { return index.Source{}, false }
func (c summaryCorpus) Load(ctx context.Context, src index.Source) (index.Source, error) {
	s, err := consolidate.ReadSummary(filepath.Join(c.root, src.Path))
	if err != nil {
		return src, err
	}
	r := s.Period.Range()
	text := s.Prose
	for _, d := range s.Decisions {
		text += "\n" + d.Text
	}
	src.Docs = []index.Doc{{ID: s.ID(), Level: s.Period.Level, Period: s.Period.String(), Kind: "summary",
		Text: text, Path: src.Path, Line: 1, Start: r.From, End: r.To}}
	return src, nil
}

// years is DAYBOOK_BENCH_YEARS, 1 by default.
func years() int {
	if n, err := strconv.Atoi(os.Getenv("DAYBOOK_BENCH_YEARS")); err == nil && n > 0 {
		return n
	}
	return 1
}

func getCorpus(tb testing.TB) *corpus {
	corpusOnce.Do(func() {
		shared, sharedErr = makeCorpus(tb, years())
	})
	if sharedErr != nil {
		tb.Fatal(sharedErr)
	}
	return shared
}

func makeCorpus(tb testing.TB, n int) (*corpus, error) {
	root, err := os.MkdirTemp("", "daybook-bench-*")
	if err != nil {
		return nil, err
	}
	end := date.MustParse("2025-12-31")
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	t0 := time.Now()
	st, err := gen.Write(root, gen.Options{Years: n, Seed: 1, End: end})
	if err != nil {
		return nil, err
	}
	tb.Logf("gen: %d years, %d days, %d entries, %.1f MiB in %s", n, st.Days, st.Entries, float64(st.Bytes)/(1<<20), time.Since(t0).Round(time.Millisecond))
	t0 = time.Now()
	c := &consolidate.Consolidator{Root: root, Loc: time.UTC, Summarizer: offline.NewSummarizer(), Now: func() time.Time { return now }}
	cs, err := c.Run(context.Background(), consolidate.RunOptions{})
	if err != nil {
		return nil, err
	}
	tb.Logf("consolidate: %d days, %d months, %d years in %s", cs.Days, cs.Months, cs.Years, time.Since(t0).Round(time.Millisecond))
	t0 = time.Now()
	x, err := index.Open(context.Background(), filepath.Join(root, "index"), index.Options{Embedder: offline.NewEmbedder()})
	if err != nil {
		return nil, err
	}
	ss, err := x.Sync(context.Background(), false, index.DayFiles{Root: root}, summaryCorpus{root})
	if err != nil {
		return nil, err
	}
	build := time.Since(t0)
	xs, _ := x.Stats()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	tb.Logf("index: %d files, %d docs, %d vectors in %s; %.1f MiB on disk; Go heap in use %.0f MiB (sys %.0f MiB)",
		ss.Files, xs.Docs, xs.Vectors, build.Round(time.Millisecond), float64(xs.Bytes)/(1<<20),
		float64(ms.HeapInuse)/(1<<20), float64(ms.Sys)/(1<<20))
	facts, err := gen.ReadFacts(filepath.Join(root, gen.FactsFile))
	if err != nil {
		return nil, err
	}
	return &corpus{root: root, x: x, facts: facts, build: build, now: now}, nil
}

func (c *corpus) opts(fusion string) recall.Options {
	return recall.Options{Root: c.root, Now: func() time.Time { return c.now }, Loc: time.UTC, Fusion: fusion}
}

func BenchmarkDrill(b *testing.B) {
	c := getCorpus(b)
	ctx := context.Background()
	var lat []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		f := c.facts[i%len(c.facts)]
		t0 := time.Now()
		if _, err := recall.Recall(ctx, c.x, daybook.RecallRequest{Query: f.Q}, c.opts(recall.FuseSum)); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

func BenchmarkFuse(b *testing.B) {
	c := getCorpus(b)
	ctx := context.Background()
	for _, fusion := range []string{recall.FuseSum, recall.FuseRRF} {
		b.Run(fusion, func(b *testing.B) {
			hits := 0
			n := 0
			for i := 0; b.Loop(); i++ {
				f := c.facts[i%len(c.facts)]
				resp, err := recall.Recall(ctx, c.x, daybook.RecallRequest{Query: f.Q, Level: "entry", Limit: 10}, c.opts(fusion))
				if err != nil {
					b.Fatal(err)
				}
				n++
				if found(resp.Results, f) {
					hits++
				}
			}
			b.ReportMetric(float64(hits)/float64(n), "recall@10")
		})
	}
}

// found reports whether a result is an entry on one of the fact's days.
func found(rs []daybook.RecallResult, f gen.Fact) bool {
	for _, r := range rs {
		if slices.Contains(f.Days, r.Period) {
			return true
		}
	}
	return false
}

// TestMeasure prints the figures of the report: index build, size and
// recall@10 of each mode and fusion over the planted facts. It runs only
// with DAYBOOK_MEASURE=1 (DAYBOOK_BENCH_YEARS=5 for five years).
func TestMeasure(t *testing.T) {
	if os.Getenv("DAYBOOK_MEASURE") == "" {
		t.Skip("set DAYBOOK_MEASURE=1")
	}
	c := getCorpus(t)
	ctx := context.Background()
	for _, m := range []struct{ mode, fusion string }{{"drill", "sum"}, {"drill", "rrf"}, {"bm25", "sum"}, {"vector", "sum"}, {"linear", "sum"}} {
		hits := 0
		var lat []time.Duration
		for _, f := range c.facts {
			t0 := time.Now()
			resp, err := recall.Recall(ctx, c.x, daybook.RecallRequest{Query: f.Q, Mode: m.mode, Level: "entry", Limit: 10}, c.opts(m.fusion))
			lat = append(lat, time.Since(t0))
			if err != nil {
				t.Fatal(err)
			}
			if found(resp.Results, f) {
				hits++
			}
		}
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		t.Logf("%-6s %-3s recall@10 %d/%d  p50 %s  p99 %s", m.mode, m.fusion, hits, len(c.facts),
			lat[len(lat)/2].Round(time.Microsecond), lat[len(lat)*99/100].Round(time.Microsecond))
	}
}
