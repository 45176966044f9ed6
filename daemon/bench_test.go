package daemon

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/tooling/gen"
)

// genYears writes n years of generated days ending 2025-12-31 into dir.
func genYears(b *testing.B, dir string, n int) {
	b.Helper()
	if _, err := gen.Write(dir, gen.Options{Years: n, Seed: 1, End: date.MustParse("2025-12-31")}); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkDaemonBackfill5Years starts a daemon on five generated years
// with no summaries and times the start's backfill. Run with -benchtime=1x.
func BenchmarkDaemonBackfill5Years(b *testing.B) {
	b.Run("index=off", func(b *testing.B) { benchBackfill(b, true) })
	b.Run("index=on", func(b *testing.B) { benchBackfill(b, false) })
}

func benchBackfill(b *testing.B, noIndex bool) {
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		genYears(b, dir, 5)
		var lb logBuf
		a := newTestApp(b, dir, testConfig(b, "UTC"), &lb, nil)
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		b.StartTimer()
		start := time.Now()
		d := startDaemon(b, a, Options{NoWatch: true, NoIndex: noIndex, JumpEvery: -1})
		waitBackfill(b, d, 30*time.Minute)
		b.ReportMetric(time.Since(start).Seconds(), "s/backfill")
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/(1<<20), "MiB-alloc")
		b.ReportMetric(float64(after.HeapSys)/(1<<20), "MiB-heap-sys")
		b.ReportMetric(float64(countSummaries(b, dir)), "summaries")
	}
}

// BenchmarkDaemonNoChangeStart times a daemon's start over five years whose
// summaries are all current: the backfill finds nothing to do.
func BenchmarkDaemonNoChangeStart(b *testing.B) {
	dir := b.TempDir()
	genYears(b, dir, 5)
	var lb logBuf
	a := newTestApp(b, dir, testConfig(b, "UTC"), &lb, nil)
	if _, err := consolidatorFor(a).Run(b.Context(), consolidateAll()); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		d, err := newDaemon(a, consolidatorFor(a), Options{NoWatch: true, NoIndex: true, JumpEvery: -1})
		if err != nil {
			b.Fatal(err)
		}
		if err := d.Run(); err != nil {
			b.Fatal(err)
		}
		for {
			if at, msg := lastRun(d, JobBackfill); !at.IsZero() {
				if msg != "" {
					b.Fatal(msg)
				}
				break
			}
			time.Sleep(200 * time.Microsecond)
		}
		if err := d.Close(b.Context()); err != nil {
			b.Fatal(err)
		}
	}
	if n := strings.Count(lb.String(), "msg=consolidated system=daemon"); n > 0 {
		b.Fatalf("a no-change start consolidated %d times", n)
	}
}
