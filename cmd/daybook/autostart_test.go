//go:build unix

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/daybook/daybook/internal/launch"
	"github.com/daybook/daybook/internal/launch/launchtest"
)

// TestAutostart: commands a person types work on the files and start
// nothing; ten hooks racing with no daemon leave exactly one, started once,
// detached from them; the next prompt gets its evidence; status says who
// started it and how to stop it, and "daybook daemon stop" does; a second
// "daybook daemon" is refused with exit code 1.
func TestAutostart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both binaries and starts a daemon")
	}
	work := t.TempDir()
	bin := binaries(t)
	data, project := filepath.Join(work, "data"), filepath.Join(work, "billing-ops")
	for _, d := range []string{project, filepath.Join(work, "config", "daybook")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A hooks.timeout long enough for a loaded machine to start the daemon
	// and build the index of a few entries within one hook.
	if err := os.WriteFile(filepath.Join(work, "config", "daybook", "config.yaml"),
		[]byte("timezone: UTC\nhooks:\n  timeout: 20s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	launchtest.Cleanup(t, data) // registered before anything may start one
	env := append(os.Environ(), "DAYBOOK_DIR="+data, "DAYBOOK_CONFIG=", "XDG_CONFIG_HOME="+filepath.Join(work, "config"),
		"XDG_RUNTIME_DIR="+filepath.Join(work, "run"), "TZ=UTC", "DAYBOOK_AUTOSTART=", "PATH="+bin+":"+os.Getenv("PATH"))
	socket := filepath.Join(work, "run", "daybook", "daybook.sock")
	run := func(stdin string, args ...string) (string, string, error) {
		cmd := exec.Command(filepath.Join(bin, "daybook"), args...)
		cmd.Env, cmd.Dir, cmd.Stdin = env, project, strings.NewReader(stdin)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		return o.String(), e.String(), err
	}
	must := func(args ...string) string {
		t.Helper()
		out, errOut, err := run("", args...)
		if err != nil {
			t.Fatalf("daybook %v: %v\n%s%s", args, err, out, errOut)
		}
		return out
	}

	// A person's commands: on the files, no daemon.
	must("remember", "--at", "2026-11-18 17:00", "The nightly backup of the billing replica failed: disk full on /var/backups.")
	must("find", "backup")
	must("recall", "billing replica backup")
	if _, err := os.Lstat(socket); err == nil {
		t.Fatal("a command typed in a shell left a socket: it started a daemon")
	}
	if pids, ok := launchtest.Daemons(data); ok && len(pids) != 0 {
		t.Fatalf("a command typed in a shell started daemons %v", pids)
	}

	// Ten hooks race: one daemon. Each is of a session of its own: a
	// prompt adds only what its session does not hold already, so hooks of
	// one session would rightly print nothing once one of them had the
	// evidence.
	prompt := `{"session_id":"s1","transcript_path":"/nonexistent","cwd":"` + project +
		`","hook_event_name":"UserPromptSubmit","prompt":"Why does the nightly backup of the billing replica fail again?"}`
	var wg sync.WaitGroup
	outs := make([]string, 10)
	for i := range outs {
		wg.Go(func() {
			out, errOut, err := run(strings.Replace(prompt, `"session_id":"s1"`, fmt.Sprintf(`"session_id":"race-%d"`, i), 1), "hook", "prompt")
			if err != nil {
				t.Errorf("racing hook %d: %v (a hook exits 0)\n%s", i, err, errOut)
			}
			outs[i] = out
		})
	}
	wg.Wait()
	pids, ok := launchtest.Daemons(data)
	if ok && len(pids) != 1 {
		t.Fatalf("ten racing hooks left %d daemons (%v), want 1", len(pids), pids)
	}
	log, err := os.ReadFile(filepath.Join(data, "state", "daemon", "daemon.log"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(log), "--- "); n != 1 || strings.Contains(string(log), "already runs") {
		t.Fatalf("the daemon's log shows %d starts, want 1:\n%s", n, log)
	}
	evidence, starting := 0, 0
	for i, out := range outs {
		switch {
		case strings.Contains(out, "disk full on /var/backups"):
			evidence++
		case strings.Contains(out, "daybook memory is starting"):
			starting++
		default:
			t.Errorf("racing hook %d printed neither the evidence nor that the memory is starting: %q", i, out)
		}
	}
	t.Logf("ten racing hooks: one daemon (pid %v); %d had the evidence, %d said the memory is starting", pids, evidence, starting)

	// The next prompt, of a new session, gets its evidence.
	out, errOut, err := run(strings.Replace(prompt, `"session_id":"s1"`, `"session_id":"s2"`, 1), "hook", "prompt")
	if err != nil || !strings.Contains(out, "disk full on /var/backups") || !strings.Contains(out, `"hookEventName":"UserPromptSubmit"`) {
		t.Fatalf("the prompt after the race: %v\nstdout: %s\nstderr: %s", err, out, errOut)
	}

	// Who started it, how to stop it.
	st := must("status")
	if !strings.Contains(st, "autostart by daybook hook prompt; stop it with \"daybook daemon stop\"") {
		t.Fatalf("status does not say how the daemon was started and how to stop it:\n%s", st)
	}
	// A second daemon is refused: exit 1.
	_, errOut, err = run("", "daemon")
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(errOut, "already runs") {
		t.Fatalf("a second daemon: %v, want exit 1 saying one already runs\n%s", err, errOut)
	}
	if out := must("daemon", "stop"); !strings.Contains(out, "stopped the daemon") {
		t.Fatalf("daemon stop printed %q", out)
	}
	if pids, ok := launchtest.Daemons(data); ok && len(pids) != 0 {
		t.Fatalf("after daemon stop: daemons %v", pids)
	}
	// A hook that cannot wait for the daemon it starts says so in one line.
	quick := filepath.Join(work, "quick.yaml")
	if err := os.WriteFile(quick, []byte("timezone: UTC\nhooks:\n  timeout: 1ms\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err = run(prompt, "hook", "prompt", "--config", quick)
	if err != nil || !strings.Contains(out, `"additionalContext":"daybook memory is starting: its daemon was just started (pid `) ||
		strings.Count(out, "\n") != 1 {
		t.Fatalf("a hook with no time to wait for the daemon it started: %v\nstdout: %s\nstderr: %s", err, out, errOut)
	}
	t.Logf("with hooks.timeout 1ms: %s", out)
	// Once it listens, the next hook, with no time either, finds the
	// daemon young: it says the memory is still starting (unless the
	// daemon answered in 1ms).
	for deadline := time.Now().Add(time.Minute); !launch.Listens(socket); {
		if time.Now().After(deadline) {
			t.Fatal("the daemon the hook started does not listen after a minute")
		}
		time.Sleep(10 * time.Millisecond)
	}
	out, errOut, err = run(prompt, "hook", "prompt", "--config", quick)
	if err != nil || (!strings.Contains(out, `"additionalContext":"daybook memory is still starting: its daemon started `) &&
		!strings.Contains(out, "disk full on /var/backups")) {
		t.Fatalf("the next hook with no time to wait: %v\nstdout: %s\nstderr: %s", err, out, errOut)
	}
	t.Logf("the next one: %s", out)
	if out := must("daemon", "stop"); !strings.Contains(out, "autostart by daybook hook prompt") {
		t.Fatalf("daemon stop printed %q", out)
	}

	// Off: a hook starts nothing and prints nothing.
	env = append(env, "DAYBOOK_AUTOSTART=0")
	if out, _, err := run(prompt, "hook", "prompt"); err != nil || out != "" {
		t.Fatalf("hook with DAYBOOK_AUTOSTART=0: %v %q, want nothing", err, out)
	}
	if _, err := os.Lstat(socket); err == nil {
		t.Fatal("DAYBOOK_AUTOSTART=0: a hook started a daemon")
	}
}
