package bench

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/tooling/gen"
)

// BenchmarkRecallDataDir times App.Recall over the planted facts of the data
// dir in DAYBOOK_BENCH_DIR: one "daybook bench --keep" left, or one made by
// "daybook gen", "consolidate" and "reindex". It is what to profile the
// drill with (-cpuprofile); without the variable it is skipped. Besides the
// mean it reports the median and 99th percentile of one recall.
func BenchmarkRecallDataDir(b *testing.B) {
	dir := os.Getenv("DAYBOOK_BENCH_DIR")
	if dir == "" {
		b.Skip("set DAYBOOK_BENCH_DIR to a consolidated and indexed data dir")
	}
	facts, err := gen.ReadFacts(filepath.Join(dir, gen.FactsFile))
	if err != nil {
		b.Fatal(err)
	}
	if len(facts) == 0 {
		b.Fatal(errNoFacts)
	}
	cfg := config.Default()
	cfg.Timezone = "UTC"
	if err := cfg.Validate(); err != nil {
		b.Fatal(err)
	}
	a := app.New(dir, cfg, nil)
	defer a.Close()
	ctx := context.Background()
	for _, mode := range []string{"drill", "bm25"} {
		b.Run(mode, func(b *testing.B) {
			if _, err := a.Recall(ctx, daybook.RecallRequest{Query: facts[0].Q, Mode: mode}); err != nil {
				b.Fatal(err)
			}
			i, linear := 0, 0
			var took []time.Duration
			for b.Loop() {
				start := time.Now()
				resp, err := a.Recall(ctx, daybook.RecallRequest{Query: facts[i%len(facts)].Q, Mode: mode})
				took = append(took, time.Since(start))
				if err != nil {
					b.Fatal(err)
				}
				if resp.Method.Linear || resp.Method.Start == daybook.MethodLinear {
					linear++
				}
				i++
			}
			b.ReportMetric(float64(linear)/float64(i), "linear-share")
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
