package proxy_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook/internal/adapters/proxy"
)

// authSeen records the Authorization headers that reach the upstream.
type authSeen struct {
	mu   sync.Mutex
	seen []string
	next http.RoundTripper
}

func (a *authSeen) RoundTrip(r *http.Request) (*http.Response, error) {
	a.mu.Lock()
	a.seen = append(a.seen, r.Header.Get("Authorization"))
	a.mu.Unlock()
	return a.next.RoundTrip(r)
}

// Where the owner of a connection cannot be known, every request needs
// the token: the Ollama Go client without it gets 403 and nothing is
// forwarded or written; with the token in the base URL's path
// (/t/TOKEN), or as Authorization: Bearer TOKEN, it is served, and the
// upstream never sees the token. A wrong token in the path is 403 too.
func TestTokenRequired(t *testing.T) {
	s := newServed(t, proxy.Options{}, proxy.ServerOptions{Owner: proxy.OwnerToken})
	if s.srv.Owner() != proxy.OwnerToken {
		t.Fatalf("owner check %s", s.srv.Owner())
	}
	if fi, err := os.Stat(proxy.TokenPath(s.dir)); err != nil || fi.Mode().Perm() != 0o600 || len(s.token) != 64 {
		t.Fatalf("token file: %v %v, %d characters", fi.Mode(), err, len(s.token))
	}
	seen := &authSeen{next: s.upstream.next}
	s.upstream.next = seen
	s.remember("The safe's combination is 31-07-19.", "2026-05-04 07:40")
	s.up.Reply("Your safe's combination is 31-07-19.")
	before := dayFiles(t, s.dir)
	chat := &api.ChatRequest{Model: "llama3.2", Messages: []api.Message{{Role: "user", Content: "What is the safe's combination?"}}}

	for _, base := range []string{"http://" + s.addr, "http://" + s.addr + proxy.TokenPrefix + strings.Repeat("0", 64)} {
		c := api.NewClient(mustURL(t, base), http.DefaultClient)
		err := c.Chat(context.Background(), chat, func(api.ChatResponse) error { return nil })
		var se api.StatusError
		if !errors.As(err, &se) || se.StatusCode != http.StatusForbidden || !strings.Contains(se.ErrorMessage, "token") {
			t.Errorf("the Ollama Go client at %s without the token: %v, want 403 naming the token", base, err)
		}
		if _, err := c.List(context.Background()); !errors.As(err, &se) || se.StatusCode != http.StatusForbidden {
			t.Errorf("list at %s without the token: %v, want 403", base, err)
		}
	}
	s.waitIdle()
	s.nothingTouched(t, "requests without the token", before)

	c := api.NewClient(mustURL(t, "http://"+s.addr+proxy.TokenPrefix+s.token), http.DefaultClient)
	if got := chatVia(t, c, chat); !strings.Contains(got, "31-07-19") {
		t.Errorf("with the token in the path: %q", got)
	}
	if l, err := c.List(context.Background()); err != nil || len(l.Models) == 0 {
		t.Errorf("list with the token in the path: %v %v", l, err)
	}
	code, _, body := postJSON(t, "http://"+s.addr+"/api/chat", chat, map[string]string{"Authorization": "Bearer " + s.token})
	if code != http.StatusOK || !strings.Contains(body, "31-07-19") {
		t.Errorf("with the token in Authorization: %d %s", code, body)
	}
	for _, a := range seen.seen {
		if strings.Contains(a, s.token) {
			t.Errorf("the upstream saw the token: %q", a)
		}
	}
	if !strings.Contains(s.logText(), "every request needs the token") || !strings.Contains(s.logText(), proxy.TokenPath(s.dir)) {
		t.Errorf("the log does not say the token is required and where it is:\n%s", s.logText())
	}
}

// The official OpenAI Node client reaches the proxy with the owner's
// token as its API key (Authorization: Bearer) or in its base URL, and
// gets 403 with an API key that is not the token.
func TestTokenOpenAINodeClient(t *testing.T) {
	mod := openAIModule()
	if mod == "" {
		t.Skip("skipping: the OpenAI Node client is not installed (run .ci/install-openai, which needs npm, or set OPENAI_MODULE)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("skipping: node is not installed")
	}
	s := newServed(t, proxy.Options{}, proxy.ServerOptions{Owner: proxy.OwnerToken})
	s.up.Reply("Hello, owner.")
	run := func(base, key string) (answer string, status int) {
		cmd := exec.Command(node, filepath.Join("testdata", "openai_owner.cjs"), base, key)
		cmd.Env = append(os.Environ(), "OPENAI_MODULE="+mod)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("node: %v\n%s", err, out)
		}
		var got struct {
			Answer string
			Status int
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return got.Answer, got.Status
	}
	v1 := "http://" + s.addr + "/v1"
	if a, st := run(v1, "ollama"); st != http.StatusForbidden || a != "" {
		t.Errorf("API key ollama: %q %d, want 403", a, st)
	}
	if n := s.upstream.n.Load(); n != 0 {
		t.Errorf("%d requests went upstream without the token", n)
	}
	if a, st := run(v1, s.token); st != 0 || a != "Hello, owner." {
		t.Errorf("the token as API key: %q %d", a, st)
	}
	if a, st := run("http://"+s.addr+proxy.TokenPrefix+s.token+"/v1", "ollama"); st != 0 || a != "Hello, owner." {
		t.Errorf("the token in the base URL: %q %d", a, st)
	}
}
