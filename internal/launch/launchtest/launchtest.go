//go:build unix

// Package launchtest is for the tests that let a hook, mcp or chat start a
// daemon (package launch): such a daemon is detached from the test, so the
// test stops it itself, with Cleanup, and counts the daemons of a data dir
// with Daemons.
package launchtest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/daybook/daybook/internal/launch"
	"github.com/daybook/daybook/internal/util/filelock"
)

// pidFile is the daemon's lock in the data dir (daemon.PIDFile).
const pidFile = "daybook.pid"

// Cleanup stops, when the test ends, the daemon that holds dir's pid lock
// then, if any (Stop).
func Cleanup(t testing.TB, dir string) {
	t.Cleanup(func() { Stop(t, dir) })
}

// Stop stops the daemon that holds dir's pid lock, once any daemon being
// started has listened: SIGTERM, SIGKILL when
// it is still there 40 s later, and waits until the lock is free (which it
// is the moment the process is gone, reaped or not).
func Stop(t testing.TB, dir string) {
	t.Helper()
	start := time.Now()
	// A daemon being started holds the autostart lock until it listens
	// (or dies): wait for that, so that its pid file is there.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	launch.WaitStarting(ctx, dir)
	cancel()
	path := filepath.Join(dir, pidFile)
	termed, killed := 0, false
	for {
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			return // no daemon ever ran on dir
		}
		if filelock.TryLock(f) == nil {
			f.Close()
			if termed != 0 {
				t.Logf("stopped the daemon (pid %d) of %s in %s", termed, dir, time.Since(start).Round(time.Millisecond))
			}
			return
		}
		b, _ := os.ReadFile(path)
		f.Close()
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		switch {
		case pid <= 0:
		case termed == 0:
			termed = pid
			syscall.Kill(pid, syscall.SIGTERM)
		case !killed && time.Since(start) > 40*time.Second:
			killed = true
			t.Errorf("the daemon (pid %d) of %s did not stop within 40s of SIGTERM: killed", pid, dir)
			syscall.Kill(pid, syscall.SIGKILL)
		case time.Since(start) > 60*time.Second:
			t.Errorf("the daemon (pid %d) of %s is still there after SIGKILL", pid, dir)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Daemons returns the pids of the processes that run "daemon --dir dir"
// (every daybook daemon started for dir, whichever got the lock), read
// from /proc; ok is false where there is no /proc.
func Daemons(dir string) (pids []int, ok bool) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, false
	}
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		return nil, false
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || len(b) == 0 {
			continue
		}
		args := strings.Split(string(bytes.TrimRight(b, "\x00")), "\x00")
		for i := 1; i+2 < len(args); i++ {
			if args[i] == "daemon" && args[i+1] == "--dir" && args[i+2] == dir {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids, true
}
