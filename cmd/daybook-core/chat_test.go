package main

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook/internal/cli"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/models/ollama/ollamatest"
)

// chatEnv returns an env over a fresh data dir with no daemon and no config
// file, reading stdin.
func chatEnv(t *testing.T, stdin string, stdout, stderr *bytes.Buffer) (*cli.Env, string) {
	t.Helper()
	root := t.TempDir()
	vars := map[string]string{
		"DAYBOOK_DIR": filepath.Join(root, "data"), "XDG_CONFIG_HOME": filepath.Join(root, "config"),
		"XDG_RUNTIME_DIR": filepath.Join(root, "run"), "DAYBOOK_AUTOSTART": "0", // on the files
	}
	e := newEnv(strings.NewReader(stdin), stdout, stderr)
	e.OSEnv = config.Env{Getenv: func(k string) string { return vars[k] }, HomeDir: func() (string, error) { return root, nil }}
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
	e.OSEnv.Getenv = func(k string) string {
		return map[string]string{"DAYBOOK_DIR": dir, "XDG_RUNTIME_DIR": filepath.Join(dir, "run"), "DAYBOOK_AUTOSTART": "0"}[k]
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

// The daemon serves the memory proxy on proxy.listen: a chat through it
// with the official Go client is answered and remembered, and stopping the
// daemon stops the proxy.
func TestDaemonServesProxy(t *testing.T) {
	up := ollamatest.New(t, "llama3.2")
	up.Reply("Served by the daemon's proxy.")
	addr := strings.TrimPrefix(ollamatest.DeadURL(t), "http://") // a free loopback port
	var out, errOut syncBuffer
	e, dir := chatEnv(t, "", &bytes.Buffer{}, &bytes.Buffer{})
	e.Stdout, e.Stderr = &out, &errOut
	cfgPath := filepath.Join(filepath.Dir(dir), "daybook.yaml")
	cfgText := "timezone: UTC\nproxy:\n  listen: " + addr + "\n  upstream: " + up.URL + "\n"
	if err := os.WriteFile(cfgPath, []byte(cfgText), 0o600); err != nil {
		t.Fatal(err)
	}
	e.ConfigPath = cfgPath
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() { done <- runEnv(ctx, e, []string{"daemon"}) }()
	defer func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("daemon exited %d: %s", code, errOut.String())
		}
		if _, err := http.Get("http://" + addr + "/api/tags"); err == nil {
			t.Error("the proxy still answers after the daemon stopped")
		}
	}()
	c := api.NewClient(&url.URL{Scheme: "http", Host: addr}, http.DefaultClient)
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := c.List(ctx); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the daemon's proxy did not answer in 30 s: %s", errOut.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	var got strings.Builder
	if err := c.Chat(ctx, &api.ChatRequest{Model: "llama3.2", Messages: []api.Message{{Role: "user", Content: "Is the proxy on?"}}},
		func(r api.ChatResponse) error { got.WriteString(r.Message.Content); return nil }); err != nil {
		t.Fatal(err)
	}
	if got.String() != "Served by the daemon's proxy." {
		t.Errorf("answer %q", got.String())
	}
	day, _ := os.ReadFile(filepath.Join(dir, "days", time.Now().UTC().Format("2006/01/02")+".md"))
	if !strings.Contains(string(day), "[chat] user: Is the proxy on?") || !strings.Contains(string(day), "[chat] llama3.2: Served by") {
		t.Errorf("day file holds:\n%s", day)
	}
	if !strings.Contains(errOut.String(), "memory proxy") {
		t.Errorf("the daemon did not log the proxy:\n%s", errOut.String())
	}
	if log := errOut.String(); !strings.Contains(log, "serving its owner only") || !strings.Contains(log, filepath.Join(dir, "state", "proxy.token")) {
		t.Errorf("the daemon did not log the owner check and the token file:\n%s", log)
	}
}

// syncBuffer is a bytes.Buffer safe for the daemon's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
