//go:build unix

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/daybook/daybook/internal/launch/launchtest"
)

// repoRoot is the clone this test runs in: the plugin marketplace.
const repoRoot = "../.."

// TestPluginManifests: "claude plugin validate --strict" passes on the
// marketplace (the repository's root) and on the plugin.
func TestPluginManifests(t *testing.T) {
	cli := needClaude(t)
	root, _ := filepath.Abs(repoRoot)
	home := t.TempDir()
	env := claudeEnv(home, t.TempDir(), filepath.Join(home, "data"), "http://127.0.0.1:9")
	for _, dir := range []string{root, filepath.Join(root, "plugins", "daybook")} {
		out := runIn(t, home, env, "", cli, "plugin", "validate", "--strict", dir)
		if !strings.Contains(out, "Validation passed") {
			t.Fatalf("validate %s:\n%s", dir, out)
		}
	}
}

// TestPlugin drives the real Claude Code CLI with the plugin installed
// from this clone's marketplace, against a fake Messages API, with daybook
// on the PATH and no daemon running: the first "claude -p" starts the
// daemon from its SessionStart hook, the prompt's evidence reaches the
// model in that first prompt's request (on a machine too loaded to open the
// index within hooks.timeout: the line that the memory is starting, then
// the evidence in the second's; the log says which), and the turn is
// written once; a
// second run adds only its own turn; ten of the plugin's hook commands
// racing with no daemon leave exactly one, and the next prompt gets its
// evidence.
func TestPlugin(t *testing.T) {
	cli := needClaude(t)
	bin := buildDaybook(t)
	root, _ := filepath.Abs(repoRoot)
	home := t.TempDir()
	project := filepath.Join(home, "billing-ops")
	data := filepath.Join(home, "data")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	api := newFakeMessages(t)
	env := claudeEnv(home, bin, data, api.URL)
	launchtest.Cleanup(t, data) // the daemon a hook starts
	daybook := func(args ...string) string { return runIn(t, project, env, "", filepath.Join(bin, "daybook"), args...) }

	runIn(t, home, env, "", cli, "plugin", "marketplace", "add", root)
	runIn(t, home, env, "", cli, "plugin", "install", "daybook@daybook")
	daybook("remember", "--at", "2026-11-18 17:00", "The nightly backup of the billing replica failed: disk full on /var/backups.")
	if pids, ok := launchtest.Daemons(data); ok && len(pids) != 0 {
		t.Fatalf("remember, typed in a shell, started daemons %v", pids)
	}

	today := func() string {
		b, _ := os.ReadFile(filepath.Join(data, "days", time.Now().UTC().Format("2006/01/02")+".md"))
		return string(b)
	}
	ask := func(prompt string) []string {
		t.Helper()
		n := api.count()
		out := runIn(t, project, env, "", cli, "-p", prompt)
		if !strings.Contains(out, answerTo(prompt)) {
			t.Fatalf("claude -p %q printed %q, not the fake's answer", prompt, out)
		}
		reqs := api.requests(n)
		if len(reqs) == 0 {
			t.Fatalf("claude -p %q sent the fake no request", prompt)
		}
		return reqs
	}
	// mainRequest is the request that carries the prompt.
	mainRequest := func(reqs []string, prompt string) string {
		t.Helper()
		for _, r := range reqs {
			if strings.Contains(r, prompt) && strings.Contains(r, `"tools"`) {
				return r
			}
		}
		t.Fatalf("no request carried the prompt %q with tools: %d requests", prompt, len(reqs))
		return ""
	}
	captured := func(prompt string) {
		t.Helper()
		// The Stop and SessionEnd hooks have run when claude -p returns.
		day := today()
		for _, line := range []string{"User: " + prompt, "Assistant: " + answerTo(prompt)} {
			if n := strings.Count(day, line); n != 1 {
				t.Fatalf("%q is in today's day file %d times, want once:\n%s", line, n, day)
			}
		}
		if !strings.Contains(day, "#claude-code") || !strings.Contains(day, "#project-billing-ops") {
			t.Fatalf("the captured turn lacks its tags:\n%s", day)
		}
	}

	// First run: no daemon; the SessionStart hook (or the MCP server)
	// starts it. The prompt hook then has its own hooks.timeout (2 s) to
	// get the evidence; on this one-entry data dir it does, but a machine
	// too loaded to open the index in time gets the line that the memory
	// is starting instead, and the evidence must then come with the second
	// prompt.
	first := "Why does the nightly backup of the billing replica fail again?"
	req := mainRequest(ask(first), first)
	if !strings.Contains(req, "mcp__plugin_daybook_daybook__recall") {
		t.Errorf("the plugin's MCP tools are not offered to the model")
	}
	// The entry reaches the session once (docs/agents.md, "A session's
	// budget"): in the SessionStart block, among the recent entries of a
	// one-entry data dir, or else as the prompt's evidence.
	evidenceFirst := strings.Contains(req, "disk full on /var/backups")
	switch {
	case evidenceFirst && strings.Contains(req, "## Evidence"):
		i := strings.Index(req, "UserPromptSubmit hook additional context")
		if i < 0 {
			t.Fatalf("the first prompt's request has the evidence but no UserPromptSubmit context")
		}
		excerpt, _ := strconv.Unquote(`"` + req[i:min(len(req), i+520)] + `"`)
		t.Logf("FIRST prompt: the evidence is in the request the fake received:\n%s", excerpt)
	case evidenceFirst:
		i := strings.Index(req, "SessionStart hook additional context")
		if i < 0 {
			t.Fatalf("the first prompt's request holds the entry outside daybook's blocks:\n%.3000s", req)
		}
		excerpt, _ := strconv.Unquote(`"` + req[i:min(len(req), i+360)] + `"`)
		t.Logf("FIRST prompt: the entry came with the session's start block, and the prompt added nothing the session holds:\n%s", excerpt)
	case strings.Contains(req, "daybook memory is") && strings.Contains(req, "starting"):
		t.Logf("first prompt: the line that the memory is starting; the evidence must come with the second")
	default:
		t.Fatalf("the first prompt's request has neither the entry nor the line that the memory is starting:\n%.3000s", req)
	}
	st := daybook("status")
	// The SessionStart hook and the MCP server start together: either
	// may be the one that starts the daemon.
	by := regexp.MustCompile(`autostart by daybook (hook session-start|hook prompt|mcp); stop it with "daybook daemon stop"`).FindStringSubmatch(st)
	if by == nil {
		t.Fatalf("status does not say the plugin started the daemon, and how to stop it:\n%s", st)
	}
	t.Logf("the daemon was started by %s", by[1])
	pids, ok := launchtest.Daemons(data)
	if ok && len(pids) != 1 {
		t.Fatalf("after the first run: daemons %v, want one", pids)
	}
	captured(first)

	// Second run: only its own turn is added.
	before := today()
	second := "What did we decide to do about the replica's disk space?"
	req = mainRequest(ask(second), second)
	if !evidenceFirst && !strings.Contains(req, "disk full on /var/backups") {
		t.Fatalf("neither the first nor the second prompt's request has the evidence:\n%.3000s", req)
	}
	captured(second)
	captured(first)
	if added := strings.Count(today(), "\n- ") - strings.Count(before, "\n- "); added != 2 {
		t.Fatalf("the second run added %d entries, want 2 (its prompt and answer):\n%s", added, today())
	}

	// Ten of the plugin's hook commands race with no daemon: one starts.
	daybook("daemon", "stop")
	if pids, ok := launchtest.Daemons(data); ok && len(pids) != 0 {
		t.Fatalf("after daemon stop: daemons %v", pids)
	}
	hookCmd := pluginHookCommand(t, root, "UserPromptSubmit")
	hookEnv := append(env, "CLAUDE_PLUGIN_ROOT="+filepath.Join(root, "plugins", "daybook"))
	input, _ := json.Marshal(map[string]string{"session_id": "race", "transcript_path": filepath.Join(home, "none.jsonl"),
		"cwd": project, "hook_event_name": "UserPromptSubmit", "prompt": first})
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Go(func() {
			cmd := exec.Command("sh", "-c", hookCmd)
			cmd.Dir, cmd.Env, cmd.Stdin = project, hookEnv, strings.NewReader(string(input))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("racing hook %d: %v\n%s", i, err, out)
			}
		})
	}
	wg.Wait()
	pids, ok = launchtest.Daemons(data)
	if ok && len(pids) != 1 {
		t.Fatalf("ten racing hooks left daemons %v, want one", pids)
	}
	t.Logf("ten racing hooks (%s): one daemon, pid %v", hookCmd, pids)
	third := "Has the billing replica backup failed before?"
	req = mainRequest(ask(third), third)
	if !strings.Contains(req, "disk full on /var/backups") {
		t.Fatalf("the prompt after the race lacks the evidence:\n%.3000s", req)
	}
	captured(third)
	log, _ := os.ReadFile(filepath.Join(data, "state", "daemon", "daemon.log"))
	if n := strings.Count(string(log), "--- "); n != 2 || strings.Contains(string(log), "already runs") {
		t.Fatalf("the daemon's log shows %d starts, want 2 (the first run's and the race's):\n%s", n, log)
	}
	t.Logf("today's day file after three runs:\n%s", today())
	api.mu.Lock()
	t.Logf("the fake answered %d streamed and %d plain requests", api.streamed, api.plain)
	api.mu.Unlock()
}

// pluginHookCommand is the command the plugin's hooks.json runs for event.
func pluginHookCommand(t *testing.T, root, event string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "plugins", "daybook", "hooks", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var h struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string }
		}
	}
	if err := json.Unmarshal(b, &h); err != nil {
		t.Fatal(err)
	}
	if len(h.Hooks[event]) != 1 || len(h.Hooks[event][0].Hooks) != 1 {
		t.Fatalf("hooks.json: want one %s command", event)
	}
	return h.Hooks[event][0].Hooks[0].Command
}

// TestPluginWithoutDaybook: where no daybook is on the PATH, the plugin's
// SessionStart hook tells the user in one line how to install it (a
// systemMessage, shown to the user and not to the model) and exits 0, the
// other hooks exit 0 quietly, and the MCP server exits 1 saying the same.
func TestPluginWithoutDaybook(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	root, _ := filepath.Abs(repoRoot)
	// A PATH with sh alone: no daybook.
	empty := t.TempDir()
	if err := os.Symlink(sh, filepath.Join(empty, "sh")); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + empty, "HOME=" + empty, "CLAUDE_PLUGIN_ROOT=" + filepath.Join(root, "plugins", "daybook")}
	run := func(command string) (string, string, int) {
		cmd := exec.Command(sh, "-c", command)
		cmd.Env, cmd.Dir, cmd.Stdin = env, empty, strings.NewReader(`{"hook_event_name":"SessionStart"}`)
		var o, e strings.Builder
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return o.String(), e.String(), code
	}
	out, _, code := run(pluginHookCommand(t, root, "SessionStart"))
	var msg struct{ SystemMessage string }
	if code != 0 || json.Unmarshal([]byte(out), &msg) != nil ||
		!strings.Contains(msg.SystemMessage, "go install github.com/daybook/daybook/cmd/...@latest") || strings.Count(out, "\n") != 1 {
		t.Fatalf("SessionStart without daybook: exit %d, stdout %q; want exit 0 and one systemMessage line saying how to install it", code, out)
	}
	for _, ev := range []string{"UserPromptSubmit", "Stop", "PreCompact", "SessionEnd"} {
		if out, _, code := run(pluginHookCommand(t, root, ev)); code != 0 || out != "" {
			t.Errorf("%s without daybook: exit %d, stdout %q; want 0 and nothing", ev, code, out)
		}
	}
	var mcp struct {
		MCPServers map[string]struct {
			Command string
			Args    []string
		} `json:"mcpServers"`
	}
	b, err := os.ReadFile(filepath.Join(root, "plugins", "daybook", ".mcp.json"))
	if err != nil || json.Unmarshal(b, &mcp) != nil {
		t.Fatalf(".mcp.json: %v", err)
	}
	srv := mcp.MCPServers["daybook"]
	args := strings.ReplaceAll(strings.Join(srv.Args, " "), "${CLAUDE_PLUGIN_ROOT}", filepath.Join(root, "plugins", "daybook"))
	if _, errOut, code := run(srv.Command + " " + args); code != 1 || !strings.Contains(errOut, "daybook is not installed: run go install") {
		t.Fatalf("the MCP server without daybook: exit %d, stderr %q; want 1 and how to install it", code, errOut)
	}
}
