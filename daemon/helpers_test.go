package daemon

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/internal/util/logtest"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/app/apptest"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/daybooktest"
)

// logBuf is a log destination that tests read while the daemon writes.
type logBuf = logtest.Buffer

// testConfig is the default config in zone tz with a short edit debounce.
func testConfig(t testing.TB, tz string) config.Config {
	t.Helper()
	cfg := config.Default()
	cfg.Timezone = tz
	cfg.Consolidate.Debounce = 100 * time.Millisecond
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// newTestApp returns an App on dir, with the daemon's options, whose log
// goes to lb (and to the test log with -v).
func newTestApp(t testing.TB, dir string, cfg config.Config, lb *logBuf, now func() time.Time) *app.App {
	t.Helper()
	log := slog.New(slog.NewTextHandler(lb, &slog.HandlerOptions{Level: slog.LevelDebug}))
	opts := app.Options{IndexLockTimeout: IndexLockTimeout, IndexProgress: IndexProgress(nil, log), BackgroundCatchUp: true}
	return apptest.New(t, dir, apptest.Config(cfg), apptest.Log(log), apptest.Options(opts), apptest.Now(now))
}

// newDaemon is New with the schedule of a's config, as the command wires it.
func newDaemon(a *app.App, c Consolidator, opts Options) (*Daemon, error) {
	cc := a.Config().Consolidate
	opts.Schedule = Schedule{Daily: cc.Daily, Monthly: cc.Monthly, Yearly: cc.Yearly, OnEdit: cc.OnEdit, Debounce: cc.Debounce}
	return New(a, c, opts)
}

// summaryFiles maps every file under summaries/ (relative, slashed) to its
// modification time.
func summaryFiles(t testing.TB, root string) map[string]time.Time {
	t.Helper()
	return daybooktest.ModTimes(t, root, "summaries")
}

// isSummary reports whether rel is a summary file rather than state or a lock.
func isSummary(rel string) bool {
	return strings.HasSuffix(rel, ".md") && !strings.HasPrefix(filepath.Base(rel), ".")
}

// waitFor polls cond until it holds or the timeout passes.
func waitFor(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// idle reports whether w has no queued task and no day waiting out its
// debounce (a task it runs is not counted: see running).
func (w *worker) idle() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.queue) == 0 && len(w.edited) == 0
}

// running reports whether a job of d runs.
func running(d *Daemon) bool {
	for _, j := range d.Jobs() {
		if j.Running {
			return true
		}
	}
	return false
}

// lastRun returns when job last finished a run, and its error.
func lastRun(d *Daemon, job string) (time.Time, string) {
	for _, j := range d.Jobs() {
		if j.Name == job && !j.Running {
			return j.LastRun, j.LastError
		}
	}
	return time.Time{}, ""
}

// startDaemon builds and runs a daemon over a and stops it at cleanup.
func startDaemon(t testing.TB, a *app.App, opts Options) *Daemon {
	t.Helper()
	d, err := newDaemon(a, consolidatorFor(a), opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Run(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := d.Close(ctx); err != nil {
			t.Error(err)
		}
	})
	return d
}

// waitBackfill waits until the first backfill finished, and fails on its error.
func waitBackfill(t testing.TB, d *Daemon, timeout time.Duration) {
	t.Helper()
	waitFor(t, timeout, "the backfill", func() bool { at, _ := lastRun(d, JobBackfill); return !at.IsZero() })
	if _, err := lastRun(d, JobBackfill); err != "" {
		t.Fatalf("backfill: %s", err)
	}
}

// consolidateAll is a Run over the whole history at every level.
func consolidateAll() consolidate.RunOptions { return consolidate.RunOptions{} }

// consolidatorFor returns the consolidator the daemon uses for a.
func consolidatorFor(a *app.App) *consolidate.Consolidator {
	return a.Consolidator()
}
