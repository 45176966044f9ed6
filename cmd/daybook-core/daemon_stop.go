package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/cli"
)

// stopWait bounds the wait for a stopped daemon to be gone: its own stop
// waits up to stopTimeout for running work.
const stopWait = stopTimeout + 5*time.Second

// stopDaemon stops the daemon that answers for the data dir: it asks its
// status for the pid, sends it SIGTERM, and waits until the socket no
// longer answers. No daemon is an error (exit 1), and so is one that a
// service manager runs: it would start it again.
func stopDaemon(ctx context.Context, e *cli.Env) error {
	if err := e.Load(); err != nil {
		return err
	}
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
	deadline := time.Now().Add(stopWait)
	for {
		c, _, err := cli.DialDaemon(ctx, e)
		if err == nil && c == nil {
			break
		}
		if c != nil {
			c.Close()
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if time.Now().After(deadline) {
			return errors.New("the daemon did not stop within " + stopWait.String() + fmt.Sprintf(" (pid %d)", d.PID))
		}
		time.Sleep(50 * time.Millisecond)
	}
	fmt.Fprintf(e.Stdout, "stopped the daemon (pid %d, %s) of %s\n", d.PID, d.StartedBy, e.AbsDir)
	return nil
}
