//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHookSessionBudget drives the hooks as Claude Code does, through the
// commands of docs/agents.md and a running daemon's socket: a session's
// start hands over the foundation, its prompts do not again, a prompt
// hands over only what the session has not been given, and a resumed
// session gets the foundation again; stats counts the tokens. Then the
// session's answer that restates what its prompt was handed cites it, and
// recall ranks it below the note it restates (issue 35).
func TestHookSessionBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both binaries and starts a daemon")
	}
	work := t.TempDir()
	bin := binaries(t)
	data, project := filepath.Join(work, "data"), filepath.Join(work, "garage")
	transcript := filepath.Join(work, "claude", "sess.jsonl")
	for _, d := range []string{data, project, filepath.Dir(transcript), filepath.Join(work, "config", "daybook")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(work, "config", "daybook", "config.yaml"), []byte("timezone: UTC\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const foundation = "FOUNDATION-MARK: I am Kit; keep answers short."
	if err := os.WriteFile(filepath.Join(data, "foundation.md"), []byte(foundation+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "DAYBOOK_DIR="+data, "DAYBOOK_CONFIG=", "XDG_CONFIG_HOME="+filepath.Join(work, "config"),
		"XDG_RUNTIME_DIR="+filepath.Join(work, "run"), "TZ=UTC", "DAYBOOK_NOCAPTURE=", "PATH="+bin+":"+os.Getenv("PATH"))
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
	now := time.Now().UTC()
	at := func(daysAgo int, clock string) string {
		return now.AddDate(0, 0, -daysAgo).Format("2006-01-02") + " " + clock
	}
	note := strings.TrimSpace(run("remember", "--kind", "fact", "--at", at(60, "09:00"), "The garage door code is 4417, set after the locksmith visit."))
	run("remember", "--at", at(1, "18:00"), "Planted the tomatoes along the south fence.")
	run("remember", "--at", at(40, "20:00"), "The bike shed key hangs behind the pantry door.")

	d := exec.Command(filepath.Join(bin, "daybook"), "daemon")
	d.Env = env
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		d.Process.Signal(os.Interrupt)
		d.Wait()
	})
	for deadline := time.Now().Add(2 * time.Minute); !strings.Contains(run("status"), "running, pid"); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the daemon did not answer status in 2 minutes")
		}
	}
	// The daemon's first backfill writes yesterday's summary, which names
	// the recent entry: let it finish, so that the session's start and its
	// prompts see one memory (a summary written between them would be new
	// to the session and rightly handed over).
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		var st struct {
			StaleCount int `json:"stale_count"`
		}
		out := run("status", "--json")
		if err := json.Unmarshal([]byte(out), &st); err != nil {
			t.Fatalf("status --json: %v\n%s", err, out)
		}
		if st.StaleCount == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the daemon's backfill left stale summaries after 2 minutes:\n%s", out)
		}
	}

	commands := hookCommands(t, settingsBlock(t))
	const session = "7c1d2e3f-0000-4000-8000-00000000abcd"
	hook := func(event string, input map[string]any) string {
		t.Helper()
		input["session_id"], input["transcript_path"], input["cwd"], input["hook_event_name"] = session, transcript, project, event
		in, _ := json.Marshal(input)
		cmd := exec.Command("sh", "-c", commands[event])
		cmd.Env, cmd.Dir, cmd.Stdin = env, project, bytes.NewReader(in)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s hook: %v (a hook must exit 0)\nstderr: %s", event, err, e.String())
		}
		if e.Len() > 0 {
			t.Logf("%s hook stderr: %s", event, e.String())
		}
		if o.Len() == 0 {
			return ""
		}
		return additionalContext(t, o.String(), event)
	}
	start := func(source string) string {
		return hook("SessionStart", map[string]any{"source": source})
	}
	prompt := func(p string) string {
		return hook("UserPromptSubmit", map[string]any{"prompt": p, "permission_mode": "default"})
	}

	// Start, then two prompts: the foundation once.
	blocks := []string{start("startup"), prompt("what is the garage door code?"), prompt("remind me of the garage door code and the bike shed key")}
	if n := strings.Count(strings.Join(blocks, "\n"), foundation); n != 1 || !strings.Contains(blocks[0], foundation) {
		t.Errorf("the foundation is in the session's blocks %d times, want once, at its start:\n%s", n, strings.Join(blocks, "\n---\n"))
	}
	if !strings.Contains(blocks[1], "4417") {
		t.Errorf("the first prompt's block lacks the garage door code:\n%s", blocks[1])
	}
	if strings.Contains(blocks[2], "4417") {
		t.Errorf("the second prompt's block hands over the garage door code again:\n%s", blocks[2])
	}
	if strings.Contains(blocks[1], "tomatoes") {
		t.Errorf("the first prompt's block repeats a recent entry the start handed over:\n%s", blocks[1])
	}
	// Resume (and clear, compact): the block of the start again.
	for _, src := range []string{"resume", "clear", "compact"} {
		if b := start(src); !strings.Contains(b, foundation) {
			t.Errorf("SessionStart %s: no foundation:\n%s", src, b)
		}
		if b := prompt("what is the garage door code again?"); strings.Contains(b, foundation) {
			t.Errorf("a prompt after %s repeats the foundation:\n%s", src, b)
		}
	}
	stats := run("stats")
	if !strings.Contains(stats, "hooks injected") || !strings.Contains(stats, "in 4 session starts") {
		t.Errorf("stats does not report the tokens injected:\n%s", stats)
	}

	// The session's answer restates the note its prompt was handed: it
	// cites it, and recall ranks it below the note.
	ts := now.Add(-time.Hour)
	lines := []map[string]any{
		{"type": "user", "uuid": "u-1", "timestamp": ts.Format(time.RFC3339), "message": map[string]any{"role": "user", "content": "what is the garage door code again?"}},
		{"type": "assistant", "uuid": "a-1", "timestamp": ts.Add(10 * time.Second).Format(time.RFC3339),
			"message": map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": "The garage door code is 4417 (from your note after the locksmith visit)."}}}},
	}
	var tr bytes.Buffer
	for _, l := range lines {
		b, _ := json.Marshal(l)
		tr.Write(append(b, '\n'))
	}
	if err := os.WriteFile(transcript, tr.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	hook("Stop", map[string]any{"stop_hook_active": false})
	noteID := ""
	var rs struct {
		Results []struct {
			ID, Snippet string
			Score       float64
		}
	}
	if err := json.Unmarshal([]byte(run("recall", "--json", "--level", "entry", "garage door code 4417")), &rs); err != nil {
		t.Fatal(err)
	}
	for _, r := range rs.Results {
		if strings.Contains(r.Snippet, "locksmith visit.") && !strings.Contains(r.Snippet, "Assistant") {
			noteID = r.ID
		}
	}
	day, _ := os.ReadFile(filepath.Join(data, "days", ts.Format("2006/01/02")+".md"))
	if noteID == "" || !strings.Contains(string(day), "cites: ["+noteID+"]") {
		st, _ := os.ReadFile(filepath.Join(data, "state", "hooks", "context", session+".json"))
		t.Fatalf("the captured answer does not cite the note %s (%s):\n%s\nthe session's state: %s", noteID, note, day, st)
	}
	if len(rs.Results) < 2 || rs.Results[0].ID != noteID {
		t.Errorf("recall ranks the echo above the note it restates: %s", fmt.Sprint(rs.Results))
	}
	d.Process.Signal(syscall.SIGCONT)
}
