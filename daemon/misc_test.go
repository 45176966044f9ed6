package daemon

import (
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/daybooktest"
)

func TestNonUTF8DayIsSkippedAndNamed(t *testing.T) {
	dir := t.TempDir()
	daybooktest.WriteDay(t, dir, date.MustParse("2025-03-01").String(), daybooktest.Hourly("[fact] a good day")...)
	daybooktest.WriteDay(t, dir, date.MustParse("2025-03-03").String(), daybooktest.Hourly("[fact] another good day")...)
	bad := dayfiles.Path(dir, date.MustParse("2025-03-02"))
	os.MkdirAll(bad[:len(bad)-len("02.md")], 0o755)
	if err := os.WriteFile(bad, []byte("# 2025-03-02 Sunday\n\n- 09:00 caf\xe9 in latin-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var lb logBuf
	a := newTestApp(t, dir, testConfig(t, "UTC"), &lb, nil)
	d := startDaemon(t, a, Options{NoWatch: true, JumpEvery: -1})
	waitBackfill(t, d, 30*time.Second)
	got := summaryFiles(t, dir)
	for _, rel := range []string{"summaries/2025/03/01.md", "summaries/2025/03/03.md", "summaries/2025/03.md", "summaries/2025.md"} {
		if _, ok := got[rel]; !ok {
			t.Errorf("missing %s", rel)
		}
	}
	if _, ok := got["summaries/2025/03/02.md"]; ok {
		t.Error("the unreadable day got a summary")
	}
	var named bool
	for _, l := range strings.Split(lb.String(), "\n") {
		if strings.Contains(l, "skipped a day file") && strings.Contains(l, "days/2025/03/02.md") {
			named = true
		}
	}
	if !named {
		t.Errorf("no log line names the skipped file:\n%s", lb.String())
	}
}

// TestClockJumpBackfills: after the machine slept past a day's end, the
// daemon backfills what cron could not run.
func TestClockJumpBackfills(t *testing.T) {
	dir := t.TempDir()
	base := time.Date(2025, 5, 10, 22, 0, 0, 0, time.UTC)
	start := time.Now()
	var offset atomic.Int64
	now := func() time.Time { return base.Add(time.Since(start) + time.Duration(offset.Load())) }
	var lb logBuf
	a := newTestApp(t, dir, testConfig(t, "UTC"), &lb, now)
	daybooktest.WriteDay(t, dir, date.MustParse("2025-05-09").String(), daybooktest.Hourly("[fact] closed before start")...)
	d := startDaemon(t, a, Options{NoWatch: true, JumpEvery: 20 * time.Millisecond})
	waitBackfill(t, d, 30*time.Second)
	if _, ok := summaryFiles(t, dir)["summaries/2025/05/09.md"]; !ok {
		t.Fatal("the start's backfill missed 2025-05-09")
	}
	// Today, 2025-05-10, is open and gets no summary yet.
	daybooktest.WriteDay(t, dir, date.MustParse("2025-05-10").String(), daybooktest.Hourly("[fact] written tonight")...)
	first, _ := lastRun(d, JobBackfill)
	// A bounded wait that proves something does not happen: five clock
	// checks' time (JumpEvery 20ms) without a jump, and no summary.
	time.Sleep(100 * time.Millisecond)
	if _, ok := summaryFiles(t, dir)["summaries/2025/05/10.md"]; ok {
		t.Fatal("an open day was summarized")
	}
	// The lid closes for ten hours; 02:00 passes while the process sleeps.
	offset.Store(int64(10 * time.Hour))
	waitFor(t, 10*time.Second, "the backfill after the jump", func() bool { at, _ := lastRun(d, JobBackfill); return at.After(first) })
	if _, ok := summaryFiles(t, dir)["summaries/2025/05/10.md"]; !ok {
		t.Fatalf("no backfill of 2025-05-10 after the jump:\n%s", lb.String())
	}
	if !strings.Contains(lb.String(), "the clock jumped") {
		t.Error("no log line about the jump")
	}
}
