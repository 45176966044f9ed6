package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daybook/daybook/internal/adapters/ollama/ollamatest"
	"github.com/daybook/daybook/internal/config"
)

// chatEnv returns an env over a fresh data dir with no daemon and no config
// file, reading stdin.
func chatEnv(t *testing.T, stdin string, stdout, stderr *bytes.Buffer) (*env, string) {
	t.Helper()
	root := t.TempDir()
	vars := map[string]string{
		"DAYBOOK_DIR": filepath.Join(root, "data"), "XDG_CONFIG_HOME": filepath.Join(root, "config"),
		"XDG_RUNTIME_DIR": filepath.Join(root, "run"),
	}
	e := newEnv(strings.NewReader(stdin), stdout, stderr)
	e.osEnv = config.Env{Getenv: func(k string) string { return vars[k] }, HomeDir: func() (string, error) { return root, nil }}
	return e, vars["DAYBOOK_DIR"]
}

// daybook chat against a fake Ollama: the answer streams, the memory used
// is cited, /recall and /expand answer from memory, /forget keeps a turn
// out, and the rest is in today's day file.
func TestChatSession(t *testing.T) {
	up := ollamatest.New(t, "llama3.2")
	up.Reply("The code is 4417.", "Noted, not kept.")
	var out, errOut bytes.Buffer
	e, dir := chatEnv(t, "", &out, &errOut)
	seed := []string{"remember", "--at", "2026-03-02 18:00", "The garage door code is 4417."}
	if code := runEnv(context.Background(), e, seed); code != 0 {
		t.Fatalf("remember: %d %s", code, errOut.String())
	}
	e, _ = chatEnv(t, "What is the garage door code?\n/recall garage door\n/expand day:2026-03-02\n/forget I owe Sam 20 euros.\n/quit\n", &out, &errOut)
	e.osEnv.Getenv = func(k string) string {
		return map[string]string{"DAYBOOK_DIR": dir, "XDG_RUNTIME_DIR": filepath.Join(dir, "run")}[k]
	}
	out.Reset()
	code := runEnv(context.Background(), e, []string{"chat", "--upstream", up.URL, "--model", "llama3.2"})
	t.Logf("transcript:\n%s", out.String())
	if code != 0 {
		t.Fatalf("chat exited %d: %s", code, errOut.String())
	}
	o := out.String()
	for _, want := range []string{"> The code is 4417.\nmemory: [", "18:00 The **garage** **door** code is 4417.", "> Noted, not kept.\n", "(not remembered)"} {
		if !strings.Contains(o, want) {
			t.Errorf("transcript lacks %q", want)
		}
	}
	if ch := up.Chats(); len(ch) != 2 || ch[0].Messages[0].Role != "system" || !strings.Contains(ch[0].Messages[0].Content, "4417") {
		t.Errorf("the model was not given the memory: %+v", ch)
	}
	var day []byte
	filepath.WalkDir(filepath.Join(dir, "days"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(path)
			day = append(day, b...)
		}
		return nil
	})
	t.Logf("day files:\n%s", day)
	if !strings.Contains(string(day), "[chat] user: What is the garage door code?") ||
		!strings.Contains(string(day), "[chat] llama3.2: The code is 4417.") || strings.Contains(string(day), "Sam") {
		t.Errorf("day files hold:\n%s", day)
	}
}

// Without an Ollama, chat says so in one line, pointing at docs/ollama.md,
// and exits 1.
func TestChatWithoutOllama(t *testing.T) {
	var out, errOut bytes.Buffer
	e, _ := chatEnv(t, "hello\n", &out, &errOut)
	code := runEnv(context.Background(), e, []string{"chat", "--upstream", ollamatest.DeadURL(t)})
	msg := errOut.String()
	if code != 1 || strings.Count(strings.TrimSpace(msg), "\n") != 0 || !strings.Contains(msg, "docs/ollama.md") || !strings.Contains(msg, "no Ollama answers") {
		t.Errorf("exit %d, stderr %q: want 1 and one line pointing at docs/ollama.md", code, msg)
	}
}
