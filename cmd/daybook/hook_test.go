//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hookFixtures are the hook inputs and transcripts written from Claude
// Code's documented shapes, shared with the hooks package's tests.
var hookFixtures = filepath.Join("..", "..", "internal", "adapters", "hooks", "testdata")

// settingsBlock returns the settings.json block docs/agents.md shows between
// its <!-- claude-code-settings --> markers: the configuration the test runs.
func settingsBlock(t *testing.T) []byte {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "agents.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- claude-code-settings -->\\s*```json\n(.*?)```\\s*<!-- /claude-code-settings -->").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/agents.md has no ```json block between <!-- claude-code-settings --> markers")
	}
	return m[1]
}

// hookCommands reads the command each event runs from a settings.json.
func hookCommands(t *testing.T, settings []byte) map[string]string {
	t.Helper()
	var s struct {
		Hooks map[string][]struct {
			Hooks []struct{ Type, Command string }
		}
	}
	if err := json.Unmarshal(settings, &s); err != nil {
		t.Fatalf("settings: %v\n%s", err, settings)
	}
	out := map[string]string{}
	for ev, groups := range s.Hooks {
		if len(groups) != 1 || len(groups[0].Hooks) != 1 || groups[0].Hooks[0].Type != "command" {
			t.Fatalf("%s: want one command hook: %+v", ev, groups)
		}
		out[ev] = groups[0].Hooks[0].Command
	}
	return out
}

// TestHooks runs the hooks as docs/agents.md configures Claude Code to,
// through the built front and daybook-core, on fixtures of Claude Code's
// hook input: without a daemon (nothing printed, the capture spooled, no
// index built), with one (the context handed over, the capture written once,
// the spool drained), with one stopped mid-hook (SIGSTOP: the hook gives up
// within hooks.timeout and prints nothing) and with one killed (the capture
// spooled, then written by the next daemon).
func TestHooks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both binaries and starts daemons")
	}
	work := t.TempDir()
	bin := binaries(t)
	data, project := filepath.Join(work, "data"), filepath.Join(work, "billing-ops")
	transcript := filepath.Join(work, "claude", "3f6a2c1e-8b9d-4e5f-a1b2-c3d4e5f60718.jsonl")
	for _, d := range []string{project, filepath.Dir(transcript), filepath.Join(work, "config", "daybook")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A short hooks.timeout, so that the stopped daemon's wait is short.
	if err := os.WriteFile(filepath.Join(work, "config", "daybook", "config.yaml"),
		[]byte("timezone: UTC\nhooks:\n  timeout: 500ms\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fixture := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(hookFixtures, name))
		if err != nil {
			t.Fatal(err)
		}
		return []byte(strings.NewReplacer("$TRANSCRIPT", transcript, "$PROJECT", project).Replace(string(b)))
	}
	if err := os.WriteFile(transcript, fixture("transcript.jsonl"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "DAYBOOK_DIR="+data, "DAYBOOK_CONFIG=", "XDG_CONFIG_HOME="+filepath.Join(work, "config"),
		"XDG_RUNTIME_DIR="+filepath.Join(work, "run"), "TZ=UTC", "DAYBOOK_NOCAPTURE=", "PATH="+bin+":"+os.Getenv("PATH"),
		// The hooks without a daemon, and with the test's daemons: none
		// started by a hook (autostart_test.go).
		"DAYBOOK_AUTOSTART=0")
	// The commands of docs/agents.md, run as Claude Code runs them: by
	// its shell, in the project's folder, the input on stdin.
	commands := hookCommands(t, settingsBlock(t))
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "Stop", "PreCompact", "SessionEnd"} {
		if commands[ev] == "" {
			t.Fatalf("docs/agents.md configures no %s hook", ev)
		}
	}
	hook := func(event, input string) (stdout, stderr string) {
		t.Helper()
		cmd := exec.Command("sh", "-c", commands[event])
		cmd.Env, cmd.Dir, cmd.Stdin = env, project, bytes.NewReader(fixture(input))
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s hook on %s: %v (a hook must exit 0)\nstderr: %s", event, input, err, e.String())
		}
		return o.String(), e.String()
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(filepath.Join(bin, "daybook"), args...)
		cmd.Env, cmd.Dir = env, work
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("daybook %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	dayFile := func() string {
		b, _ := os.ReadFile(filepath.Join(data, "days", "2026", "11", "20.md"))
		return string(b)
	}
	spool := filepath.Join(data, "state", "spool", "spool.jsonl")

	// No daemon: the context hooks print nothing and build no index; a
	// capture is spooled.
	run("remember", "--at", "2026-11-18 17:00", "The nightly backup of the billing replica failed: disk full on /var/backups.")
	os.RemoveAll(filepath.Join(data, "index"))
	for _, f := range []string{"session-start-startup.json", "prompt.json"} {
		ev := map[bool]string{true: "SessionStart", false: "UserPromptSubmit"}[strings.HasPrefix(f, "session")]
		if out, _ := hook(ev, f); out != "" {
			t.Errorf("%s without a daemon printed %q, want nothing", f, out)
		}
	}
	if _, err := os.Stat(filepath.Join(data, "index")); err == nil {
		t.Error("a hook without a daemon built an index")
	}
	if _, stderr := hook("Stop", "stop.json"); !strings.Contains(stderr, transcript+" line 14: skipped") {
		t.Errorf("the truncated transcript line: stderr %q, want a warning naming the file and line 14", stderr)
	}
	if b, err := os.ReadFile(spool); err != nil || strings.Count(string(b), "\n") != 4 {
		t.Fatalf("spool without a daemon: %v\n%s", err, b)
	}
	if strings.Contains(dayFile(), "billing replica?") {
		t.Fatal("a capture without a daemon wrote the day file itself")
	}
	// The front alone, no daybook-core beside it: a hook never falls
	// through to daybook-core, so it answers the same way, exit 0.
	alone := filepath.Join(work, "alone")
	os.Mkdir(alone, 0o755)
	exe, _ := os.ReadFile(filepath.Join(bin, "daybook"))
	os.WriteFile(filepath.Join(alone, "daybook"), exe, 0o755)
	hookAlone := func(event, input string) (stdout, stderr string, err error) {
		t.Helper()
		cmd := exec.Command(filepath.Join(alone, "daybook"), "hook", event)
		cmd.Env, cmd.Dir, cmd.Stdin = env, project, bytes.NewReader(fixture(input))
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err = cmd.Run()
		return o.String(), e.String(), err
	}
	for _, f := range []string{"session-start-startup.json", "prompt.json"} {
		ev := map[bool]string{true: "session-start", false: "prompt"}[strings.HasPrefix(f, "session")]
		if out, stderr, err := hookAlone(ev, f); err != nil || out != "" || stderr != "" {
			t.Errorf("hook %s, front alone, no daemon: %v, stdout %q, stderr %q; want exit 0 and nothing", ev, err, out, stderr)
		}
	}
	// Capture again from scratch: no state of the session, no spool.
	for _, f := range []string{filepath.Join(data, "state", "hooks", "sessions", "3f6a2c1e-8b9d-4e5f-a1b2-c3d4e5f60718.json"), spool} {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	if _, stderr, err := hookAlone("capture", "stop.json"); err != nil || strings.Contains(stderr, "daybook-core") {
		t.Errorf("hook capture, front alone, no daemon: %v, stderr %q; want it spooled, exit 0", err, stderr)
	}
	if b, err := os.ReadFile(spool); err != nil || strings.Count(string(b), "\n") != 4 {
		t.Fatalf("spool after the front alone's capture: %v\n%s", err, b)
	}

	// A daemon: it writes the spool at its start.
	startDaemon := func() *exec.Cmd {
		t.Helper()
		d := exec.Command(filepath.Join(bin, "daybook"), "daemon")
		d.Env = env
		if err := d.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			d.Process.Signal(syscall.SIGCONT)
			d.Process.Signal(os.Interrupt)
			d.Wait()
		})
		for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
			if strings.Contains(run("status"), "running, pid") {
				return d
			}
			if time.Now().After(deadline) {
				t.Fatal("the daemon did not answer status in 2 minutes")
			}
		}
	}
	d := startDaemon()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(spool); errors.Is(err, os.ErrNotExist) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the daemon did not write the spool in a minute")
		}
	}
	turns := []string{
		"- 09:15 User: Why does the nightly backup job fail on the billing replica? #claude-code #session-3f6a2c1e #project-billing-ops\n",
		"- 09:16 Assistant: The nightly backup fails because /var/backups on the billing replica is full",
		"- 09:20 User: Push the fix with my token [secret removed] to the zeppelin branch",
		"- 09:20 Assistant: Pushed the fix to the zeppelin branch.",
	}
	once := func(extra ...string) {
		t.Helper()
		day := dayFile()
		for _, s := range append(turns, extra...) {
			if n := strings.Count(day, s); n != 1 {
				t.Errorf("%q is in the day file %d times, want once:\n%s", s, n, day)
			}
		}
		for _, never := range []string{"ghp_R2d2", "wJalrXUtnFEMI", "Let me look", "pg_dump: error", "TodoWrite", "Subagent", "/model"} {
			if strings.Contains(day, never) {
				t.Errorf("the day file holds %q:\n%s", never, day)
			}
		}
	}
	once()

	// The context hooks through the daemon, as Claude Code's
	// additionalContext; a front alone answers them, so the daemon did.
	for _, src := range []string{"startup", "resume", "clear", "compact"} {
		out, stderr := hook("SessionStart", "session-start-"+src+".json")
		ctx := additionalContext(t, out, "SessionStart")
		if !strings.Contains(ctx, "# daybook context") || !strings.Contains(ctx, "billing replica") {
			t.Errorf("SessionStart (%s): the block lacks the recent work:\n%s\nstderr: %s", src, ctx, stderr)
		}
	}
	// The session holds its start's block: its prompt adds only what is
	// new to it (TestHookSessionBudget). A session whose start this
	// daybook did not see gets the whole block with its first prompt.
	sessionState := filepath.Join(data, "state", "hooks", "context", "3f6a2c1e-8b9d-4e5f-a1b2-c3d4e5f60718.json")
	if err := os.Remove(sessionState); err != nil {
		t.Fatal(err)
	}
	out, _ := hook("UserPromptSubmit", "prompt.json")
	if ctx := additionalContext(t, out, "UserPromptSubmit"); !strings.Contains(ctx, "disk full on /var/backups") {
		t.Errorf("the prompt's block lacks the entry that answers it:\n%s", ctx)
	}
	if out, stderr := hook("UserPromptSubmit", "prompt-unrelated.json"); out != "" {
		t.Errorf("a prompt nothing is recalled for printed %q (stderr %q), want nothing", out, stderr)
	}
	os.Remove(sessionState) // the same prompt again: whole only in a session not seen
	envAlone := append(env, "PATH="+alone+":"+os.Getenv("PATH"))
	cmd := exec.Command(filepath.Join(alone, "daybook"), "hook", "prompt")
	cmd.Env, cmd.Stdin = envAlone, bytes.NewReader(fixture("prompt.json"))
	if out, err := cmd.Output(); err != nil || !strings.Contains(string(out), "UserPromptSubmit") {
		t.Errorf("the front alone did not have the daemon answer the hook: %v %q", err, out)
	}

	// Captures through the daemon: Stop, SessionEnd and again, once each.
	for _, f := range []string{"stop.json", "sessionend.json", "stop.json", "precompact.json"} {
		ev := map[string]string{"stop.json": "Stop", "sessionend.json": "SessionEnd", "precompact.json": "PreCompact"}[f]
		hook(ev, f)
	}
	once()

	// Stopped mid-hook: the socket takes the connection, nothing answers.
	if err := d.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if out, stderr := hook("UserPromptSubmit", "prompt.json"); out != "" {
		t.Errorf("a stopped daemon: the prompt hook printed %q (%s)", out, stderr)
	}
	if out, _ := hook("SessionStart", "session-start-resume.json"); out != "" {
		t.Errorf("a stopped daemon: the session-start hook printed %q", out)
	}
	t.Logf("two context hooks against a stopped daemon took %s (hooks.timeout 500ms each)", time.Since(start).Round(time.Millisecond))

	// Killed: the capture of new turns is spooled, and the next daemon
	// writes it.
	d.Process.Signal(syscall.SIGKILL)
	d.Wait()
	if err := os.WriteFile(transcript, append(fixture("transcript.jsonl"), fixture("transcript-more.jsonl")...), 0o644); err != nil {
		t.Fatal(err)
	}
	hook("Stop", "stop.json")
	if b, err := os.ReadFile(spool); err != nil || strings.Count(string(b), "\n") != 2 {
		t.Fatalf("spool with the daemon killed: %v\n%s", err, b)
	}
	startDaemon()
	hook("Stop", "stop.json") // writes the spool if the daemon has not yet
	more := []string{"- 10:02 User: Add an alert when /var/backups is over 80 percent full", "- 10:03 Assistant: Added a disk alert"}
	for deadline := time.Now().Add(time.Minute); !strings.Contains(dayFile(), more[1]); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the spooled turns were not written:\n%s", dayFile())
		}
	}
	once(more...)

	// Capture off for the project.
	os.WriteFile(filepath.Join(project, ".daybook-nocapture"), nil, 0o644)
	os.WriteFile(transcript, append(fixture("transcript.jsonl"), []byte(`{"type":"user","message":{"role":"user","content":"a private matter of the zeppelin crew"},"uuid":"x-1","timestamp":"2026-11-20T11:00:00Z"}`+"\n")...), 0o644)
	hook("Stop", "stop.json")
	if strings.Contains(dayFile(), "private matter") {
		t.Error(".daybook-nocapture did not keep the session out")
	}
}

// additionalContext returns the block of a hook's JSON answer for event.
func additionalContext(t *testing.T, out, event string) string {
	t.Helper()
	var o struct {
		HookSpecificOutput struct {
			HookEventName     string `json:"hookEventName"`
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatalf("%s: the answer is not Claude Code's hook JSON: %v\n%q", event, err, out)
	}
	if o.HookSpecificOutput.HookEventName != event {
		t.Errorf("hookEventName %q, want %s", o.HookSpecificOutput.HookEventName, event)
	}
	return o.HookSpecificOutput.AdditionalContext
}
