package proxy_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook/internal/adapters/proxy"
	"github.com/daybook/daybook/internal/models/ollama/ollamatest"
)

// postJSON posts v to url with headers and returns the status, the
// response's headers (trailers included) and its body.
func postJSON(t *testing.T, url string, v any, headers map[string]string) (int, http.Header, string) {
	t.Helper()
	data, _ := json.Marshal(v)
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(data))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	h := resp.Header.Clone()
	for k, vv := range resp.Trailer {
		h[k] = append(h[k], vv...)
	}
	return resp.StatusCode, h, string(body)
}

// An upstream that stalls: the client gives up, and the proxy's upstream
// request ends with it instead of waiting out the stall; nothing is
// remembered.
func TestUpstreamStallsClientGivesUp(t *testing.T) {
	r := newRig(t, proxy.Options{})
	r.up.OnChat(func(int, *api.ChatRequest) ollamatest.ChatReply { return ollamatest.ChatReply{Delay: 10 * time.Minute} })
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	err := r.client().Chat(ctx, &api.ChatRequest{Model: "llama3.2", Messages: []api.Message{{Role: "user", Content: "hi"}}},
		func(api.ChatResponse) error { return nil })
	if err == nil {
		t.Fatal("a stalled upstream answered")
	}
	r.waitIdle() // the proxy's handler returns long before the stall's 10 minutes
	waitFor(t, "the upstream to see its client go", func() bool { return r.up.Left() == 1 })
	if es := r.chatEntries(); len(es) != 0 {
		t.Errorf("remembered %q", texts(es))
	}
}

// A client that disconnects in the middle of a stream cancels the upstream
// request; the half answer is not remembered.
func TestClientDisconnectsMidStream(t *testing.T) {
	r := newRig(t, proxy.Options{})
	long := strings.Repeat("word ", 600)
	r.up.OnChat(func(int, *api.ChatRequest) ollamatest.ChatReply {
		return ollamatest.ChatReply{Content: long, ChunkDelay: 20 * time.Millisecond}
	})
	ctx, cancel := context.WithCancel(context.Background())
	data, _ := json.Marshal(api.ChatRequest{Model: "llama3.2", Messages: []api.Message{{Role: "user", Content: "talk"}}})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, r.srv.URL+"/api/chat", bytes.NewReader(data))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || !strings.Contains(line, `"content":"word word word `) {
		t.Fatalf("first line %q, %v", line, err)
	}
	cancel()
	resp.Body.Close()
	r.waitIdle()
	waitFor(t, "the upstream to see its client go", func() bool { return r.up.Left() == 1 })
	if es := r.chatEntries(); len(es) != 0 {
		t.Errorf("remembered %q of a chat the client left", texts(es))
	}
}

// An upstream that is down: the client gets a 502 with Ollama's error
// shape, naming the upstream.
func TestUpstreamDown(t *testing.T) {
	r := newRig(t, proxy.Options{})
	r.up.Down()
	status, _, body := postJSON(t, r.srv.URL+"/api/chat", api.ChatRequest{Model: "llama3.2",
		Messages: []api.Message{{Role: "user", Content: "hi"}}}, nil)
	var e struct{ Error string }
	if status != http.StatusBadGateway || json.Unmarshal([]byte(body), &e) != nil || !strings.Contains(e.Error, r.up.URL) {
		t.Errorf("status %d, body %s: want 502 and {\"error\"} naming the upstream", status, body)
	}
	status, _, body = postJSON(t, r.srv.URL+"/api/tags", nil, nil) // POST: any method is passed through
	if status != http.StatusBadGateway || !strings.Contains(body, `"error"`) {
		t.Errorf("pass-through: status %d, body %s", status, body)
	}
}

// When daybook cannot build the context, the chat goes on without memory,
// and the answer says why.
func TestContextFailureForwardsWithoutMemory(t *testing.T) {
	r := newRig(t, proxy.Options{})
	if err := os.WriteFile(filepath.Join(r.dir, "foundation.md"), []byte("caf\xe9 latin-1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r.up.Reply("Answered anyway.")
	status, h, body := postJSON(t, r.srv.URL+"/api/chat", api.ChatRequest{Model: "llama3.2",
		Messages: []api.Message{{Role: "user", Content: "hi"}}}, nil)
	if status != 200 || !strings.Contains(body, "Answered anyway.") {
		t.Fatalf("status %d, body %s", status, body)
	}
	if w := h.Get(proxy.HeaderWarning); !strings.Contains(w, "foundation.md") {
		t.Errorf("%s = %q, want it to say what failed", proxy.HeaderWarning, w)
	}
	if ch := r.up.Chats(); len(ch[0].Messages) != 1 {
		t.Errorf("upstream got %d messages, want the client's alone", len(ch[0].Messages))
	}
	if !strings.Contains(r.logText(), "without memory") {
		t.Errorf("no log line:\n%s", r.logText())
	}
}

// A turn that cannot be written is spooled, said so, and written by a
// later chat once writing works again: never lost, never twice.
func TestUnwrittenTurnIsSpooledAndWrittenLater(t *testing.T) {
	r := newRig(t, proxy.Options{})
	r.up.Reply("Noted.")
	blocker := filepath.Join(r.dir, "days")
	if err := os.WriteFile(blocker, []byte("not a dir"), 0o600); err != nil {
		t.Fatal(err)
	}
	status, h, body := postJSON(t, r.srv.URL+"/api/chat", api.ChatRequest{Model: "llama3.2",
		Messages: []api.Message{{Role: "user", Content: "Remember the boiler service on Friday."}}}, nil)
	if status != 200 {
		t.Fatalf("status %d", status)
	}
	lines := strings.Split(strings.TrimSpace(body), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, `"done":true`) || !strings.Contains(last, `"`+proxy.FieldWarning+`":"remembering this turn failed`) {
		t.Errorf("the final message does not say the turn was not written: %s", last)
	}
	if w := strings.Join(h.Values(proxy.HeaderWarning), " | "); !strings.Contains(w, "kept and written later") {
		t.Errorf("%s = %q", proxy.HeaderWarning, w)
	}
	if n := r.proxy.Pending(); n != 2 {
		t.Fatalf("%d turns spooled, want 2", n)
	}
	spooled, _ := os.ReadFile(filepath.Join(r.dir, "state", "spool", "spool.jsonl"))
	if !strings.Contains(string(spooled), "boiler service") {
		t.Errorf("spool file holds %q", spooled)
	}
	os.Remove(blocker)
	status, _, _ = postJSON(t, r.srv.URL+"/api/chat", api.ChatRequest{Model: "llama3.2",
		Messages: []api.Message{{Role: "user", Content: "And the chimney."}}}, nil)
	if status != 200 {
		t.Fatal(status)
	}
	// The spool is written after the answer, not before it.
	waitFor(t, "the spool to be written", func() bool { return r.proxy.Pending() == 0 })
	got := texts(r.chatEntries())
	if len(got) != 4 || r.proxy.Pending() != 0 {
		t.Fatalf("entries %q, %d pending: want both chats' turns, once", got, r.proxy.Pending())
	}
	joined := strings.Join(got, "\n")
	if strings.Count(joined, "boiler service") != 1 || strings.Count(joined, "chimney") != 1 {
		t.Errorf("entries = %q", got)
	}
}

// proxy.listen must be a loopback address: anything else is refused at
// start, naming the key and the address.
func TestNonLoopbackListenRefused(t *testing.T) {
	r := newRig(t, proxy.Options{})
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.7:11435", "example.com:11435"} {
		s, err := proxy.Listen(addr, r.proxy, proxy.ServerOptions{TokenFile: proxy.TokenPath(r.dir)})
		if err == nil {
			s.Close(context.Background())
			t.Errorf("%s: listened", addr)
			continue
		}
		if !strings.Contains(err.Error(), "proxy.listen") || !strings.Contains(err.Error(), addr) {
			t.Errorf("%s: err = %v, want it to name proxy.listen and the address", addr, err)
		}
	}
	s, err := proxy.Listen("127.0.0.1:0", r.proxy, proxy.ServerOptions{TokenFile: proxy.TokenPath(r.dir)})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Serve() }()
	c := api.NewClient(mustURL(t, "http://"+s.Addr().String()), http.DefaultClient)
	if _, err := c.List(context.Background()); err != nil {
		t.Errorf("list through the served proxy: %v", err)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Error(err)
	}
	if err := <-done; err != nil {
		t.Errorf("Serve after Close = %v", err)
	}
}

// waitFor polls cond until it holds, for 20 s at most.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 20 s for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A server's write timeout (httpserve's is 2 minutes) does not cut a
// stream short: the proxy lifts it for the answers it streams.
func TestStreamOutlivesWriteTimeout(t *testing.T) {
	r := newRig(t, proxy.Options{})
	r.up.OnChat(func(int, *api.ChatRequest) ollamatest.ChatReply {
		return ollamatest.ChatReply{Content: strings.Repeat("slow words here ", 12), ChunkDelay: 60 * time.Millisecond}
	})
	srv := httptest.NewUnstartedServer(r.proxy)
	srv.Config.WriteTimeout = 200 * time.Millisecond
	srv.Config.ReadTimeout = 200 * time.Millisecond
	srv.Start()
	defer srv.Close()
	got := chatVia(t, api.NewClient(mustURL(t, srv.URL), http.DefaultClient),
		&api.ChatRequest{Model: "llama3.2", Messages: []api.Message{{Role: "user", Content: "take your time"}}})
	if got != strings.Repeat("slow words here ", 12) {
		t.Errorf("got %q", got)
	}
}
