package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestFront builds daybook and daybook-core, starts a daemon, and runs the
// front with and without daybook-core beside it: a front alone can only
// have had an answer from the daemon, through its socket API.
func TestFront(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the front hands commands to a daemon only over Unix sockets")
	}
	if testing.Short() {
		t.Skip("builds both binaries")
	}
	work := t.TempDir()
	bin, alone := binaries(t), filepath.Join(work, "alone")
	if err := os.Mkdir(alone, 0o755); err != nil {
		t.Fatal(err)
	}
	exe, _ := os.ReadFile(filepath.Join(bin, "daybook"))
	if err := os.WriteFile(filepath.Join(alone, "daybook"), exe, 0o755); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(work, "data")
	env := append(os.Environ(), "DAYBOOK_DIR="+data, "DAYBOOK_CONFIG=", "XDG_CONFIG_HOME="+filepath.Join(work, "config"),
		"XDG_RUNTIME_DIR="+filepath.Join(work, "run"), "TZ=UTC")
	run := func(dir, cwd string, args ...string) (stdout, stderr string, code int) {
		cmd := exec.Command(filepath.Join(dir, "daybook"), args...)
		cmd.Env, cmd.Dir = env, cwd
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatalf("daybook %v: %v", args, err)
		}
		return o.String(), e.String(), code
	}

	// The version and the help from the front alone, the help as
	// daybook-core prints it; a command's help needs daybook-core.
	if v, _, code := run(alone, work, "--version"); code != 0 || !strings.HasPrefix(v, "daybook ") {
		t.Fatalf("--version from the front alone: %d %q", code, v)
	}
	core := exec.Command(filepath.Join(bin, "daybook-core"), "help")
	core.Env = env
	coreHelp, err := core.Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"help"}, {"-h"}} {
		if help, stderr, code := run(alone, work, args...); code != 0 || help != string(coreHelp) {
			t.Fatalf("%q from the front alone: %d %q\n%s\nwant daybook-core's:\n%s", args, code, stderr, help, coreHelp)
		}
	}
	if _, stderr, code := run(alone, work, "help", "recall"); code != 1 || !strings.Contains(stderr, "no daybook-core beside") {
		t.Fatalf("help recall from the front alone: %d %q; want daybook-core's", code, stderr)
	}
	if help, _, code := run(bin, work, "help", "recall"); code != 0 || !strings.Contains(help, "--limit") {
		t.Fatalf("help recall: %d\n%s", code, help)
	}
	if _, stderr, code := run(bin, work, "remember", "the quarterly zeppelin review"); code != 0 {
		t.Fatalf("remember through daybook-core: %d %s", code, stderr)
	}
	if _, stderr, code := run(alone, work, "recall", "zeppelin"); code != 1 || !strings.Contains(stderr, "no daybook-core beside") {
		t.Fatalf("recall, no daemon, no daybook-core: %d %q", code, stderr)
	}
	want, _, _ := run(bin, work, "recall", "zeppelin")

	daemon := exec.Command(filepath.Join(bin, "daybook"), "daemon")
	daemon.Env = env
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		daemon.Process.Signal(os.Interrupt)
		daemon.Wait()
	})
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if out, _, _ := run(bin, work, "status"); strings.Contains(out, "running, pid") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the daemon did not answer status in 2 minutes")
		}
	}

	if got, stderr, code := run(alone, work, "recall", "zeppelin"); code != 0 || got != want {
		t.Errorf("recall through the daemon: %d %q\n got %q\nwant %q", code, stderr, got, want)
	}
	if got, _, code := run(alone, work, "--dir", "data", "find", "zeppelin"); code != 0 || !strings.Contains(got, "zeppelin review") {
		t.Errorf("find with a relative --dir through the daemon: %d %q", code, got)
	}
	if got, stderr, code := run(alone, work, "remember", "a second zeppelin"); code != 0 || !strings.HasPrefix(got, "days/") {
		t.Errorf("remember through the daemon: %d %q %q", code, got, stderr)
	}
	if _, stderr, code := run(alone, work, "recall"); code != 2 || !strings.Contains(stderr, "recall takes a QUERY") {
		t.Errorf("recall without a query through the daemon: %d %q; want 2 and the usage error", code, stderr)
	}
	// What the daemon refuses as a usage error is one here too: exit 2,
	// from the error's code, not its text.
	for _, args := range [][]string{{"recall", "--level", "bogus", "zeppelin"}, {"remember", "--kind", "wish", "x"}, {"remember", ""},
		{"recall", "--limit", "1001", "zeppelin"}} {
		if _, stderr, code := run(alone, work, args...); code != 2 || strings.Contains(stderr, "no daybook-core") {
			t.Errorf("%q through the daemon: exit %d %q; want 2", args, code, stderr)
		}
	}
	// Not a read the daemon runs, or another data dir: daybook-core's.
	if _, stderr, code := run(alone, work, "status"); code != 1 || !strings.Contains(stderr, "no daybook-core beside") {
		t.Errorf("status from the front alone: %d %q; want daybook-core's", code, stderr)
	}
	// Where no service manager runs, service install shows the command to
	// run: the front's "daybook daemon", as the README says, not
	// daybook-core's; and, with the daemon up, says that it runs.
	if _, err := os.Stat("/run/systemd/system"); err != nil {
		_, stderr, code := run(bin, work, "service", "install", "--user")
		if code != 1 || !strings.Contains(stderr, filepath.Join(bin, "daybook")+" daemon") || strings.Contains(stderr, "daybook-core") ||
			!strings.Contains(stderr, "a daemon already runs on") {
			t.Errorf("service install with no service manager: %d %q; want the front's daybook daemon, and that one runs", code, stderr)
		}
	}
	other := filepath.Join(work, "other")
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := run(alone, work, "--dir", other, "recall", "zeppelin"); code != 1 || !strings.Contains(stderr, "no daybook-core beside") {
		t.Errorf("recall in another data dir from the front alone: %d %q; want daybook-core's", code, stderr)
	}
	if _, _, code := run(bin, work, "--dir", other, "recall", "zeppelin"); code != 0 {
		t.Errorf("recall in another data dir: exit %d", code)
	}

	// A plain config file the front reads itself; one that takes YAML's
	// parser, or a cron spec of names, goes to daybook-core.
	cfg := filepath.Join(work, "config", "daybook", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		yaml  string
		front bool
	}{
		{"recall:\n  limit: 3 # plain\nhooks:\n  timeout: 3s\n", true},
		{"recall: {limit: 3}\n", false},
		{"consolidate:\n  daily: \"0 2 * * MON\"\n", false},
	} {
		if err := os.WriteFile(cfg, []byte(c.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		got, stderr, code := run(alone, work, "recall", "zeppelin")
		if c.front && (code != 0 || !strings.Contains(got, "zeppelin")) || !c.front && (code != 1 || !strings.Contains(stderr, "no daybook-core beside")) {
			t.Errorf("recall from the front alone with the config %q: %d %q %q; want it answered by the front: %v", c.yaml, code, got, stderr, c.front)
		}
		if _, stderr, code := run(bin, work, "recall", "zeppelin"); code != 0 {
			t.Errorf("recall with the config %q: %d %q", c.yaml, code, stderr)
		}
	}
}
