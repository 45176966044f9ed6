package daemon

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/tooling/gen"
)

// startChild starts a daemon process on dir; its log goes to logPath.
func startChild(t *testing.T, dir, logPath string) *exec.Cmd {
	t.Helper()
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { logf.Close() })
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+dir)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

func countSummaries(t testing.TB, dir string) int {
	n := 0
	for rel := range summaryFiles(t, dir) {
		if isSummary(rel) {
			n++
		}
	}
	return n
}

// TestKilledMidBackfillResumes kills a daemon process with SIGKILL in the
// middle of its backfill and starts another: it finishes the work, with one
// whole summary per period and no partial or temporary files.
func TestKilledMidBackfillResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a year of days")
	}
	dir := t.TempDir()
	if _, err := gen.Write(dir, gen.Options{Years: 1, Seed: 7, End: date.MustParse("2025-12-31")}); err != nil {
		t.Fatal(err)
	}
	child := startChild(t, dir, filepath.Join(t.TempDir(), "child.log"))
	waitFor(t, 60*time.Second, "the child's first summaries", func() bool { return countSummaries(t, dir) >= 40 })
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	child.Wait()
	halfway := countSummaries(t, dir)

	var lb logBuf
	a := newTestApp(t, dir, testConfig(t, "UTC"), &lb, nil)
	c := consolidatorFor(a)
	stale, err := c.Stale(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(stale) == 0 {
		t.Fatalf("the child finished (%d summaries) before it was killed: nothing to resume", halfway)
	}
	d := startDaemon(t, a, Options{NoWatch: true, NoIndex: true, JumpEvery: -1})
	waitBackfill(t, d, 120*time.Second)

	files, err := dayfiles.List(dir, date.Range{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, f := range files {
		want[consolidate.DayPeriod(f.Date).Rel()] = true
		want[consolidate.MonthPeriod(f.Date.MonthOf()).Rel()] = true
		want[consolidate.YearPeriod(f.Date.Year).Rel()] = true
	}
	got := summaryFiles(t, dir)
	n := 0
	for rel := range got {
		switch {
		case isSummary(rel):
			n++
			if !want[rel] {
				t.Errorf("unexpected summary %s", rel)
				continue
			}
			if _, err := consolidate.ReadSummary(filepath.Join(dir, rel)); err != nil {
				t.Errorf("summary %s does not read: %v", rel, err)
			}
		case strings.Contains(rel, ".daybook-tmp-"):
			t.Errorf("temporary file left behind: %s", rel)
		}
	}
	if n != len(want) {
		t.Errorf("%d summaries, want %d (killed at %d)", n, len(want), halfway)
	}
	if stale, err := c.Stale(context.Background()); err != nil || len(stale) != 0 {
		t.Errorf("stale after resuming: %d periods, %v", len(stale), err)
	}
	t.Logf("killed after %d summaries; resumed to %d", halfway, n)
}

// TestSecondDaemonRefused starts a daemon process and checks that another
// one on the same data dir is refused with the first one's pid.
func TestSecondDaemonRefused(t *testing.T) {
	dir := t.TempDir()
	logPath := filepath.Join(t.TempDir(), "child.log")
	child := startChild(t, dir, logPath)
	waitFor(t, 10*time.Second, "the child's pid file", func() bool {
		data, _ := os.ReadFile(filepath.Join(dir, PIDFile))
		return len(data) > 0
	})
	second := exec.Command(os.Args[0], "-test.run=^$")
	second.Env = append(os.Environ(), childEnv+"="+dir)
	out, err := second.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("second daemon: %v\n%s", err, out)
	}
	if want := "pid " + strconv.Itoa(child.Process.Pid); !strings.Contains(string(out), want) {
		t.Fatalf("second daemon said %q, want it to name %q", out, want)
	}
	// The first stops cleanly on SIGTERM and lets go of the data dir.
	child.Process.Signal(syscall.SIGTERM)
	if err := child.Wait(); err != nil {
		log, _ := os.ReadFile(logPath)
		t.Fatalf("first daemon: %v\n%s", err, log)
	}
	l, err := LockPID(dir, 1)
	if err != nil {
		t.Fatalf("after the first stopped: %v", err)
	}
	l.Release()
}
