//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// claudeCLI returns the official Claude Code CLI: $CLAUDE_CLI, or where
// .ci/install-claude puts it; "" when it is not installed.
func claudeCLI() string {
	if p := os.Getenv("CLAUDE_CLI"); p != "" {
		return p
	}
	cache := os.Getenv("DAYBOOK_CI_CACHE")
	if cache == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		cache = filepath.Join(home, ".cache", "daybook-ci")
	}
	p := filepath.Join(cache, "claude", "node_modules", ".bin", "claude")
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// needClaude skips the test, saying why, where the CLI is not installed or
// in -short mode; it returns the CLI's path.
func needClaude(t *testing.T) string {
	t.Helper()
	cli := claudeCLI()
	if cli == "" {
		t.Skip("skipping: the Claude Code CLI is not installed (run .ci/install-claude, which needs npm, or set CLAUDE_CLI)")
	}
	if testing.Short() {
		t.Skip("skipping the Claude Code CLI in -short mode: it builds daybook and runs the CLI")
	}
	return cli
}

// buildDaybook builds daybook and daybook-core into a folder of the test's
// and returns it.
func buildDaybook(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bin")
	build := exec.Command("go", "build", "-o", bin+string(filepath.Separator),
		"github.com/daybook/daybook/cmd/daybook", "github.com/daybook/daybook/cmd/daybook-core")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// fakeMessages is a fake of Anthropic's Messages API as Claude Code uses
// it: POST /v1/messages, streamed as server-sent events when the request
// says "stream": true, one JSON message otherwise. Every answer is one text
// block that names the question it answers. It keeps each request's body.
type fakeMessages struct {
	*httptest.Server
	mu       sync.Mutex
	bodies   []string
	streamed int
	plain    int
}

func newFakeMessages(t *testing.T) *fakeMessages {
	f := &fakeMessages{}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

// answerTo is the fake's answer to a prompt.
func answerTo(prompt string) string {
	return "From your notes: the disk on /var/backups was full (" + prompt + ")"
}

func (f *fakeMessages) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		// count_tokens, telemetry and the rest: not served.
		http.Error(w, `{"type":"error","error":{"type":"not_found_error","message":"not served by the fake"}}`, http.StatusNotFound)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req struct {
		Model    string `json:"model"`
		Stream   bool   `json:"stream"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"not JSON"}}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.bodies = append(f.bodies, string(body))
	if req.Stream {
		f.streamed++
	} else {
		f.plain++
	}
	f.mu.Unlock()
	// The prompt is in the last user message (the hooks' context may
	// follow it in a message of its own).
	prompt := ""
	for i := len(req.Messages) - 1; i >= 0 && prompt == ""; i-- {
		if req.Messages[i].Role == "user" {
			prompt = lastText(req.Messages[i].Content)
		}
	}
	text := answerTo(prompt)
	usage := map[string]any{"input_tokens": 100, "output_tokens": 20}
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": "msg_fake_plain", "type": "message", "role": "assistant",
			"model": req.Model, "content": []any{map[string]any{"type": "text", "text": text}},
			"stop_reason": "end_turn", "stop_sequence": nil, "usage": usage})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	event := func(name string, v map[string]any) {
		v["type"] = name
		data, _ := json.Marshal(v)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data)
		w.(http.Flusher).Flush()
	}
	event("message_start", map[string]any{"message": map[string]any{"id": "msg_fake_stream", "type": "message",
		"role": "assistant", "model": req.Model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 100, "output_tokens": 1}}})
	event("content_block_start", map[string]any{"index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
	half := len(text) / 2
	for _, part := range []string{text[:half], text[half:]} {
		event("content_block_delta", map[string]any{"index": 0, "delta": map[string]any{"type": "text_delta", "text": part}})
	}
	event("content_block_stop", map[string]any{"index": 0})
	event("message_delta", map[string]any{"delta": map[string]any{"stop_reason": "end_turn", "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 20}})
	event("message_stop", map[string]any{})
}

// lastText is what the user typed in a message's content: a string, or the
// first text block that is neither a system reminder nor the hooks'
// context, which Claude Code adds as blocks of their own.
func lastText(content json.RawMessage) string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s
	}
	var blocks []struct{ Type, Text string }
	json.Unmarshal(content, &blocks)
	for _, b := range blocks {
		if b.Type == "text" && !strings.HasPrefix(b.Text, "<system-reminder>") && !strings.Contains(b.Text, "hook additional context") {
			return b.Text
		}
	}
	return ""
}

// requests returns the bodies received since request n.
func (f *fakeMessages) requests(n int) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.bodies[n:]...)
}

func (f *fakeMessages) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.bodies)
}

// claudeEnv is an environment of the test's own for the CLI: a fresh home
// and config dir, the fake as the API, no telemetry or updates, and daybook
// on the PATH working on data.
func claudeEnv(home, bin, data, api string) []string {
	return []string{
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + home, "CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude"), "TMPDIR=" + os.TempDir(),
		"ANTHROPIC_BASE_URL=" + api, "ANTHROPIC_API_KEY=sk-ant-test-not-a-key",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1",
		"DAYBOOK_DIR=" + data, "DAYBOOK_CONFIG=", "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"), "XDG_RUNTIME_DIR=" + filepath.Join(home, "run"),
		"DAYBOOK_AUTOSTART=", "TZ=UTC",
	}
}

// runIn runs name with args in dir and env, and returns its output; a
// failure (or 3 minutes) ends the test. The command line and its output go
// to the test's log: the transcript.
func runIn(t *testing.T, dir string, env []string, stdin, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, env, strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(3 * time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%s %v: still running after 3 minutes\n%s", filepath.Base(name), args, out.String())
	}
	t.Logf("$ %s %s\n%s", filepath.Base(name), strings.Join(args, " "), strings.TrimRight(out.String(), "\n"))
	if err != nil {
		t.Fatalf("%s %v: %v", filepath.Base(name), args, err)
	}
	return out.String()
}
