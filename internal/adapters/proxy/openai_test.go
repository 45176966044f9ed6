package proxy_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daybook/daybook/internal/adapters/proxy"
)

// openAIModule returns the official OpenAI Node client's module dir:
// $OPENAI_MODULE, or where .ci/install-openai puts it; "" when absent.
func openAIModule() string {
	if p := os.Getenv("OPENAI_MODULE"); p != "" {
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
	p := filepath.Join(cache, "openai", "node_modules", "openai")
	if _, err := os.Stat(filepath.Join(p, "package.json")); err != nil {
		return ""
	}
	return p
}

// The official OpenAI Node client chats through /v1/chat/completions,
// whole and streamed (SSE ending in [DONE], with usage), with memory
// injected and the turns remembered; an error comes back in OpenAI's shape.
func TestOpenAINodeClient(t *testing.T) {
	mod := openAIModule()
	if mod == "" {
		t.Skip("skipping: the OpenAI Node client is not installed (run .ci/install-openai, which needs npm, or set OPENAI_MODULE)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("skipping: node is not installed")
	}
	r := newRig(t, proxy.Options{})
	r.remember("Parked the bike at the north rack of the station.", "2026-05-04 07:40")
	r.up.Reply("At the north rack.", "The car is at home.")
	cmd := exec.Command(node, filepath.Join("testdata", "openai_chat.cjs"), r.srv.URL)
	cmd.Env = append(os.Environ(), "OPENAI_MODULE="+mod)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var got struct {
		Whole, WholeFinish, Stream, Finish string
		Chunks                             int
		Usage                              *struct {
			TotalTokens int `json:"total_tokens"`
		}
		Err *struct {
			Status  int
			Message string
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Whole != "At the north rack." || got.WholeFinish != "stop" {
		t.Errorf("whole answer %q (%s)", got.Whole, got.WholeFinish)
	}
	if got.Stream != "The car is at home." || got.Finish != "stop" || got.Chunks < 3 || got.Usage == nil {
		t.Errorf("streamed answer %q (%s) in %d chunks, usage %v", got.Stream, got.Finish, got.Chunks, got.Usage)
	}
	if got.Err == nil || got.Err.Status != 404 || !strings.Contains(got.Err.Message, "not found") {
		t.Errorf("error = %+v, want the upstream's 404", got.Err)
	}
	chats := r.up.Chats()
	if len(chats) < 2 {
		t.Fatalf("upstream got %d chats", len(chats))
	}
	first := chats[0].Messages
	if len(first) != 3 || first[0].Content != "Be brief." || first[1].Role != "system" || !strings.Contains(first[1].Content, "north rack") {
		t.Errorf("upstream messages = %+v: want the client's system prompt, then memory", first)
	}
	if s := chats[0].Stream; s == nil || *s {
		t.Errorf("whole request went upstream with stream %v", s)
	}
	es := texts(r.chatEntries())
	want := []string{"user: Where did I park the bike?", "llama3.2: At the north rack.", "user: And the car?", "llama3.2: The car is at home."}
	if len(es) != len(want) {
		t.Fatalf("entries = %q, want %q", es, want)
	}
	for i := range want {
		if !strings.HasPrefix(es[i], want[i]) {
			t.Errorf("entry %d = %q, want %q", i, es[i], want[i])
		}
	}
}
