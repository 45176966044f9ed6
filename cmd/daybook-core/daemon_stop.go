package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/daemon"
	"github.com/daybook/daybook/internal/cli"
	"github.com/daybook/daybook/internal/launch"
	"github.com/daybook/daybook/internal/util/filelock"
)

// stopWait bounds the wait for a stopped daemon to be gone: its own stop
// waits up to stopTimeout for running work.
const stopWait = stopTimeout + 5*time.Second

// stopDaemon stops the daemon that answers for the data dir: it asks its
// status for the pid, sends it SIGTERM, and waits until the process is
// gone. No daemon is an error (exit 1), and so is one that a
// service manager runs: it would start it again.
func stopDaemon(ctx context.Context, e *cli.Env) error {
	if err := e.Load(); err != nil {
		return err
	}
	// A daemon a hook has just started listens in a moment: stop that one.
	waitCtx, cancel := context.WithTimeout(ctx, autostartWait)
	launch.WaitStarting(waitCtx, e.AbsDir)
	cancel()
	c, why, err := cli.DialDaemon(ctx, e)
	if err != nil {
		return err
	}
	if c == nil {
		return fmt.Errorf("no daemon to stop for %s (%s)", e.AbsDir, why)
	}
	st, err := c.Status(ctx, daybook.StatusRequest{Brief: true})
	c.Close()
	if err != nil {
		return fmt.Errorf("asking the daemon for its pid: %w", err)
	}
	d := st.Daemon
	if d.StartedBy == "service" {
		return fmt.Errorf("the daemon (pid %d) runs as a service, which would start it again: stop it with \"daybook service stop\" (--user for a user service)", d.PID)
	}
	if d.PID <= 0 {
		return fmt.Errorf("the daemon on %s did not say its pid", e.Socket())
	}
	p, err := os.FindProcess(d.PID)
	if err == nil {
		err = terminate(p)
	}
	if err != nil {
		return fmt.Errorf("stopping the daemon (pid %d): %w", d.PID, err)
	}
	// Gone when its lock on the pid file is free and the process has
	// ended, whether or not anyone reaps it.
	pidPath := filepath.Join(e.AbsDir, daemon.PIDFile)
	deadline := time.Now().Add(stopWait)
	for {
		free := true
		if f, err := os.OpenFile(pidPath, os.O_RDWR, 0); err == nil {
			free = filelock.TryLock(f) == nil
			f.Close()
		}
		// The lock is let go of just before the process exits.
		if free && gone(d.PID) {
			break
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the daemon (pid %d) did not stop within %s", d.PID, stopWait)
		}
		time.Sleep(20 * time.Millisecond)
	}
	fmt.Fprintf(e.Stdout, "stopped the daemon (pid %d, %s) of %s\n", d.PID, d.StartedBy, e.AbsDir)
	return nil
}
