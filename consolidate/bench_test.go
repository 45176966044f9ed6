package consolidate_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/tooling/gen"
)

// benchYears is how much history the benchmarks consolidate.
const benchYears = 5

// corpus writes benchYears of generated days ending on 2025-12-31 and
// returns the data dir and a clock in January 2026.
func corpus(b *testing.B) (string, time.Time) {
	b.Helper()
	root := b.TempDir()
	st, err := gen.Write(root, gen.Options{Years: benchYears, Seed: 1, End: date.MustParse("2025-12-31")})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("corpus: %d days, %d entries, %d MiB", st.Days, st.Entries, st.Bytes>>20)
	return root, time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
}

// BenchmarkBackfill consolidates 5 years from scratch: every day, month and
// year summary written. Run with -benchtime=1x; it reports the peak heap.
func BenchmarkBackfill(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		root, now := corpus(b)
		c, _ := newConsolidator(root, now)
		runtime.GC()
		stop := peakHeap()
		b.StartTimer()
		st, err := c.Run(ctx, consolidate.RunOptions{})
		b.StopTimer()
		peak := stop()
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(peak)/(1<<20), "MiB-peak-heap")
		b.ReportMetric(float64(st.Written()), "summaries")
		b.StartTimer()
	}
}

// BenchmarkNoChange reruns over 5 years already consolidated: nothing
// changed, nothing written. Target ≤ 100 ms.
func BenchmarkNoChange(b *testing.B) {
	root, now := corpus(b)
	c, _ := newConsolidator(root, now)
	if _, err := c.Run(ctx, consolidate.RunOptions{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st, err := c.Run(ctx, consolidate.RunOptions{})
		if err != nil || st.Written() != 0 {
			b.Fatalf("%+v, %v", st, err)
		}
		if i == 0 {
			b.ReportMetric(float64(st.Unchanged), "unchanged")
		}
	}
}

// peakHeap samples the heap every few milliseconds until the returned func
// is called, which returns the highest HeapInuse seen.
func peakHeap() func() uint64 {
	done := make(chan struct{})
	result := make(chan uint64)
	go func() {
		var peak uint64
		var m runtime.MemStats
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapInuse)
			select {
			case <-done:
				result <- peak
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 { close(done); return <-result }
}
