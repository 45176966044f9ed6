package index_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/models/offline"
	"github.com/daybook/daybook/internal/tooling/gen"
)

// BenchmarkBuild generates DAYBOOK_BENCH_YEARS years of day files (1 by
// default) and times a full index build of them; it reports docs/s, the
// size on disk and the Go heap.
func BenchmarkBuild(b *testing.B) {
	years := 1
	if n, err := strconv.Atoi(os.Getenv("DAYBOOK_BENCH_YEARS")); err == nil && n > 0 {
		years = n
	}
	root := b.TempDir()
	st, err := gen.Write(root, gen.Options{Years: years, Seed: 1, End: date.MustParse("2025-12-31")})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		dir := filepath.Join(root, "index-"+strconv.Itoa(i))
		t0 := time.Now()
		x, err := index.Open(context.Background(), dir, index.Options{Embedder: offline.NewEmbedder()})
		if err != nil {
			b.Fatal(err)
		}
		ss, err := x.Sync(context.Background(), false, index.DayFiles{Root: root})
		if err != nil {
			b.Fatal(err)
		}
		if err := x.Close(); err != nil {
			b.Fatal(err)
		}
		took := time.Since(t0)
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		var size int64
		filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
			if err == nil && fi.Mode().IsRegular() {
				size += fi.Size()
			}
			return nil
		})
		b.ReportMetric(float64(ss.Docs)/took.Seconds(), "docs/s")
		b.ReportMetric(float64(size)/(1<<20), "MiB-on-disk")
		b.ReportMetric(float64(ms.Sys)/(1<<20), "MiB-sys")
		b.Logf("%d years, %d entries: %d docs in %s, %.1f MiB", years, st.Entries, ss.Docs, took.Round(time.Millisecond), float64(size)/(1<<20))
	}
}
