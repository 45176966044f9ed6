package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/adapters/api"
)

// daemonChild is a "daybook daemon" started on a work dir.
type daemonChild struct {
	cmd    *exec.Cmd
	client *api.Client
	stderr bytes.Buffer
	done   chan error
}

// startDaemon starts the daemon and waits until its socket answers a
// status with no job running, up to timeout.
func startDaemon(ctx context.Context, w workDir, timeout time.Duration) (*daemonChild, error) {
	d := &daemonChild{cmd: w.command(context.WithoutCancel(ctx), "daemon"), done: make(chan error, 1)}
	d.cmd.Stderr = &d.stderr
	if err := d.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the daemon: %w", err)
	}
	go func() { d.done <- d.cmd.Wait() }()
	d.client = api.NewClient(w.socket)
	deadline := time.Now().Add(timeout)
	up := false
	for {
		// A brief status until the socket answers, then a full one (it
		// counts every day's entries) once a second until no job runs.
		sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		st, err := d.client.Status(sctx, daybook.StatusRequest{Brief: !up})
		cancel()
		wait := 100 * time.Millisecond
		switch {
		case err == nil && !up:
			up, wait = true, 0
		case err == nil && !running(st.Jobs):
			return d, nil
		case up:
			wait = time.Second
		}
		select {
		case err := <-d.done:
			d.done <- err
			return nil, fmt.Errorf("the daemon exited while starting: %v: %s", err, strings.TrimSpace(d.stderr.String()))
		case <-ctx.Done():
			d.stop()
			return nil, ctx.Err()
		case <-time.After(wait):
		}
		if time.Now().After(deadline) {
			d.stop()
			return nil, fmt.Errorf("the daemon did not settle in %s: %s", timeout, strings.TrimSpace(d.stderr.String()))
		}
	}
}

func running(jobs []daybook.JobStatus) bool {
	for _, j := range jobs {
		if j.Running {
			return true
		}
	}
	return false
}

// memory returns the daemon's current and peak resident set, in bytes,
// from /proc; zero where there is no /proc.
func (d *daemonChild) memory() (rss, hwm int64) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", d.cmd.Process.Pid))
	if err != nil {
		return 0, 0
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "VmRSS:":
			rss = kb * 1024
		case "VmHWM:":
			hwm = kb * 1024
		}
	}
	return rss, hwm
}

// stop sends SIGTERM and waits; after 60 seconds it kills the daemon.
func (d *daemonChild) stop() error {
	d.client.Close()
	if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("stopping the daemon: %w", err)
	}
	select {
	case err := <-d.done:
		if err != nil {
			return fmt.Errorf("the daemon stopped with %v: %s", err, strings.TrimSpace(d.stderr.String()))
		}
		return nil
	case <-time.After(60 * time.Second):
		d.cmd.Process.Kill()
		<-d.done
		return errors.New("the daemon did not stop within 60s of SIGTERM; killed it")
	}
}
