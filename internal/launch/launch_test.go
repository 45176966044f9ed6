//go:build unix

package launch

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/internal/util/filelock"
)

func TestDisabled(t *testing.T) {
	for v, want := range map[string]bool{"": false, "1": false, "on": false, "0": true, "off": true, " False ": true, "no": true} {
		if got := Disabled(func(string) string { return v }); got != want {
			t.Errorf("DAYBOOK_AUTOSTART=%q: disabled %v, want %v", v, got, want)
		}
	}
}

// Something listening on the socket is left alone, and so is everything
// when autostart is off: no lock, no log, nothing started.
func TestEnsureLeavesAlone(t *testing.T) {
	dir, err := os.MkdirTemp("", "dbl") // socket paths are short
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	socket := filepath.Join(dir, "d.sock")
	o := Options{Dir: filepath.Join(dir, "data"), Socket: socket, By: "test", Core: "/nonexistent/daybook-core"}

	o.Getenv = func(string) string { return "0" }
	if res, err := Ensure(context.Background(), o); err != nil || res.State != Off {
		t.Fatalf("autostart off: %v %v, want off", res.State, err)
	}
	ln, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	o.Getenv = func(string) string { return "" }
	if res, err := Ensure(context.Background(), o); err != nil || res.State != Running {
		t.Fatalf("a listener on the socket: %v %v, want running", res.State, err)
	}
	if _, err := os.Stat(o.Dir); err == nil {
		t.Fatal("Ensure created the data dir while something listened")
	}
}

// A daemon that dies before it listens: Ensure says so, naming its log,
// and lets go of the lock, so that the next starter tries again.
func TestEnsureDaemonDies(t *testing.T) {
	dir, err := os.MkdirTemp("", "dbl")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	core := filepath.Join(dir, "fake-core")
	// Writes a line to its log (stderr) and exits 1, as a daemon refused
	// by a broken config does.
	if err := os.WriteFile(core, []byte("#!/bin/sh\necho \"daybook: config.yaml: line 3: unknown key\" >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	o := Options{Dir: filepath.Join(dir, "data"), Socket: filepath.Join(dir, "d.sock"), By: "hook prompt", Core: core,
		Getenv: func(string) string { return "" }}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := Ensure(ctx, o)
	if err == nil || !strings.Contains(err.Error(), "exited before it listened") || !strings.Contains(err.Error(), "unknown key") {
		t.Fatalf("Ensure with a daemon that dies: %v %v, want the error and its log's last line", res.State, err)
	}
	log, _ := os.ReadFile(filepath.Join(o.Dir, StateDir, LogName))
	if !strings.Contains(string(log), "started by daybook hook prompt") {
		t.Fatalf("the log does not name the starter:\n%s", log)
	}
	f, err := os.OpenFile(filepath.Join(o.Dir, StateDir, LockName), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := filelock.TryLock(f); err != nil {
		t.Fatalf("the autostart lock is still held after the daemon died: %v", err)
	}
}
