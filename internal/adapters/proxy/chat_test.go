package proxy_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/entrytext"
	"github.com/daybook/daybook/internal/adapters/proxy"
	"github.com/daybook/daybook/internal/models/ollama/ollamatest"
)

func chatVia(t *testing.T, c *api.Client, req *api.ChatRequest) string {
	t.Helper()
	var b strings.Builder
	var last api.ChatResponse
	if err := c.Chat(context.Background(), req, func(r api.ChatResponse) error {
		b.WriteString(r.Message.Content)
		last = r
		return nil
	}); err != nil {
		t.Fatalf("chat through the proxy: %v", err)
	}
	if !last.Done || last.DoneReason != "stop" || last.TotalDuration == 0 {
		t.Errorf("final message = %+v: want done, its reason and its timings passed through", last)
	}
	return b.String()
}

// The official Go client chats through the proxy, streaming and not: the
// upstream gets the context block as a system message after the client's
// own system prompt, the client gets the model's answer, and the day file
// gets the user's turn and the reply as chat entries tagged with the
// conversation and the model.
func TestGoClientChatInjectsMemoryAndRemembers(t *testing.T) {
	for _, stream := range []bool{true, false} {
		t.Run(map[bool]string{true: "stream", false: "whole"}[stream], func(t *testing.T) {
			r := newRig(t, proxy.Options{})
			r.remember("The garage door code is 4417, changed after the break-in.", "2026-03-02 18:00")
			r.up.Reply("Your garage code is 4417.")
			got := chatVia(t, r.client(), &api.ChatRequest{Model: "llama3.2", Stream: &stream, Messages: []api.Message{
				{Role: "system", Content: "You are terse."},
				{Role: "user", Content: "What is the garage door code?"},
			}})
			if got != "Your garage code is 4417." {
				t.Errorf("the client got %q", got)
			}
			chats := r.up.Chats()
			if len(chats) != 1 {
				t.Fatalf("upstream got %d chats, want 1", len(chats))
			}
			msgs := chats[0].Messages
			if len(msgs) != 3 || msgs[0].Content != "You are terse." || msgs[1].Role != "system" || msgs[2].Role != "user" {
				t.Fatalf("upstream messages = %+v: want the client's system prompt, then memory, then the user", msgs)
			}
			if !strings.Contains(msgs[1].Content, "4417") || !strings.Contains(msgs[1].Content, "daybook") {
				t.Errorf("the memory message does not hold the remembered code:\n%s", msgs[1].Content)
			}
			es := r.chatEntries()
			if len(es) != 2 {
				t.Fatalf("chat entries = %q, want the user's turn and the reply", texts(es))
			}
			if es[0].Text != "user: What is the garage door code? #chat/"+strings.TrimPrefix(es[0].Tags[0], "chat/")+" #model/llama3-2" ||
				!strings.HasPrefix(es[1].Text, "llama3.2: Your garage code is 4417.") {
				t.Errorf("entries = %q", texts(es))
			}
			if len(es[1].Tags) != 2 || !strings.HasPrefix(es[1].Tags[0], "chat/") || es[1].Tags[1] != "model/llama3-2" {
				t.Errorf("reply tags = %q, want the conversation and the model", es[1].Tags)
			}
			// The reply restates the note it was handed: it cites it, and
			// recall ranks it below the note.
			rr, err := r.app.Recall(context.Background(), daybook.RecallRequest{Query: "garage door code 4417", Level: "entry"})
			if err != nil || len(rr.Results) < 2 {
				t.Fatalf("recall: %v %+v", err, rr.Results)
			}
			note := rr.Results[0].ID
			if got := entrytext.Cites(es[1].Text); len(got) != 1 || got[0] != note || strings.Contains(rr.Results[0].Snippet, "llama3.2:") {
				t.Errorf("the reply cites %q; recall's first is %s: %s", got, note, rr.Results[0].Snippet)
			}
		})
	}
}

// A client resends the whole history with every turn, and sometimes the
// same request twice: every turn is remembered once.
func TestResentHistoryIsRememberedOnce(t *testing.T) {
	r := newRig(t, proxy.Options{})
	r.up.Reply("First answer.", "Second answer.", "Second answer again.")
	c := r.client()
	hist := []api.Message{{Role: "user", Content: "Plan the garden for spring."}}
	a1 := chatVia(t, c, &api.ChatRequest{Model: "llama3.2", Messages: hist})
	hist = append(hist, api.Message{Role: "assistant", Content: a1}, api.Message{Role: "user", Content: "And the tomatoes?"})
	chatVia(t, c, &api.ChatRequest{Model: "llama3.2", Messages: hist})
	chatVia(t, c, &api.ChatRequest{Model: "llama3.2", Messages: hist}) // the client retries
	got := texts(r.chatEntries())
	want := []string{"user: Plan the garden for spring.", "llama3.2: First answer.", "user: And the tomatoes?",
		"llama3.2: Second answer.", "llama3.2: Second answer again."}
	if len(got) != len(want) {
		t.Fatalf("entries = %q, want %d", got, len(want))
	}
	conv := ""
	for i, e := range r.chatEntries() {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("entry %d = %q, want %q", i, got[i], want[i])
		}
		if conv == "" {
			conv = e.Tags[0]
		}
		if e.Tags[0] != conv {
			t.Errorf("entry %d is in conversation %s, want %s: one conversation", i, e.Tags[0], conv)
		}
	}
	// A new proxy on the same data dir (the daemon restarted) knows what
	// was written.
	p2, err := proxy.New(r.app, proxy.Options{Upstream: r.up.URL, Budget: r.app.Config().Proxy.Budget, StateDir: r.dir + "/state/proxy"})
	if err != nil {
		t.Fatal(err)
	}
	srv2 := httptest.NewServer(p2)
	defer srv2.Close()
	chatVia(t, api.NewClient(mustURL(t, srv2.URL), http.DefaultClient), &api.ChatRequest{Model: "llama3.2", Messages: hist})
	if again := texts(r.chatEntries()); len(again) != len(want) {
		t.Errorf("after a restart, a resend wrote again: %q", again[len(want):])
	}
}

// Memory can be switched off per request: the header, and the model
// suffix for clients that cannot set headers, which is stripped.
func TestOptOutPerRequest(t *testing.T) {
	r := newRig(t, proxy.Options{})
	r.up.Reply("Fine.")
	c := r.client()
	chatVia(t, c, &api.ChatRequest{Model: "llama3.2" + proxy.SuffixNoMemory, Messages: []api.Message{{Role: "user", Content: "Secret plan A."}}})
	if ch := r.up.Chats(); ch[0].Model != "llama3.2" || len(ch[0].Messages) != 1 || len(ch[0].Tools) != 0 {
		t.Errorf("upstream got model %q, %d messages, %d tools: want the suffix stripped and nothing added", ch[0].Model, len(ch[0].Messages), len(ch[0].Tools))
	}
	req := &api.ChatRequest{Model: "llama3.2", Messages: []api.Message{{Role: "user", Content: "Secret plan B."}}}
	status, _, body := postJSON(t, r.srv.URL+"/api/chat", req, map[string]string{proxy.HeaderMemory: "off"})
	if status != 200 || !strings.Contains(body, "Fine.") {
		t.Fatalf("status %d, body %s", status, body)
	}
	if ch := r.up.Chats(); len(ch[1].Messages) != 1 {
		t.Errorf("memory off: upstream got %d messages, want the client's 1", len(ch[1].Messages))
	}
	if es := r.chatEntries(); len(es) != 0 {
		t.Errorf("memory off, yet remembered %q", texts(es))
	}
}

// The model calls recall; the proxy answers it and asks again, and the
// client sees only the final answer.
func TestToolCallAnsweredByProxy(t *testing.T) {
	for _, stream := range []bool{true, false} {
		t.Run(map[bool]string{true: "stream", false: "whole"}[stream], func(t *testing.T) {
			r := newRig(t, proxy.Options{})
			r.remember("Booked the Lisbon flight, confirmation ZK41Q.", "2026-02-10 09:00")
			r.up.OnChat(func(n int, req *api.ChatRequest) ollamatest.ChatReply {
				if n == 1 {
					return ollamatest.ChatReply{ToolCalls: []api.ToolCall{ollamatest.ToolCall("recall", map[string]any{"query": "Lisbon flight confirmation"})}}
				}
				return ollamatest.ChatReply{Content: "It is ZK41Q."}
			})
			var calls int
			var b strings.Builder
			err := r.client().Chat(context.Background(), &api.ChatRequest{Model: "llama3.2", Stream: &stream,
				Messages: []api.Message{{Role: "user", Content: "What was the confirmation?"}}}, func(cr api.ChatResponse) error {
				calls += len(cr.Message.ToolCalls)
				b.WriteString(cr.Message.Content)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if b.String() != "It is ZK41Q." || calls != 0 {
				t.Errorf("client got %q and %d tool calls: want only the final answer", b.String(), calls)
			}
			chats := r.up.Chats()
			if len(chats) != 2 {
				t.Fatalf("upstream got %d chats, want 2 (the call, then its result)", len(chats))
			}
			names := map[string]bool{}
			for _, tl := range chats[0].Tools {
				names[tl.Function.Name] = true
			}
			if !names["recall"] || !names["expand"] {
				t.Errorf("tools offered = %v, want recall and expand", names)
			}
			last := chats[1].Messages[len(chats[1].Messages)-1]
			if last.Role != "tool" || last.ToolName != "recall" || !strings.Contains(last.Content, "ZK41Q") {
				t.Errorf("the tool's answer = %+v, want recall's result holding ZK41Q", last)
			}
			if es := texts(r.chatEntries()); len(es) != 2 || !strings.HasPrefix(es[1], "llama3.2: It is ZK41Q.") {
				t.Errorf("entries = %q", es)
			}
		})
	}
}

// An upstream 500 reaches the client as Ollama sent it; nothing is
// remembered.
func TestUpstreamErrorReachesClient(t *testing.T) {
	r := newRig(t, proxy.Options{})
	r.up.OnChat(func(int, *api.ChatRequest) ollamatest.ChatReply {
		return ollamatest.ChatReply{Status: 500, Error: "llama runner process has terminated"}
	})
	err := r.client().Chat(context.Background(), &api.ChatRequest{Model: "llama3.2",
		Messages: []api.Message{{Role: "user", Content: "hello"}}}, func(api.ChatResponse) error { return nil })
	var se api.StatusError
	if !errors.As(err, &se) || se.StatusCode != 500 || se.ErrorMessage != "llama runner process has terminated" {
		t.Fatalf("err = %#v, want the upstream's 500 and its message", err)
	}
	// A model that is not pulled: Ollama's 404 as it is.
	err = r.client().Chat(context.Background(), &api.ChatRequest{Model: "mistral",
		Messages: []api.Message{{Role: "user", Content: "hello"}}}, func(api.ChatResponse) error { return nil })
	if !errors.As(err, &se) || se.StatusCode != 404 || !strings.Contains(se.ErrorMessage, "not found") {
		t.Fatalf("err = %#v, want Ollama's 404", err)
	}
	if es := r.chatEntries(); len(es) != 0 {
		t.Errorf("remembered %q of a failed chat", texts(es))
	}
}

// A reply longer than an entry may be is remembered whole: its entry holds
// its start and links to the rest file that holds all of it, byte for byte
// (dayfiles.WithRest, docs/decisions/day-limit.md).
func TestLongReplyIsRememberedWhole(t *testing.T) {
	r := newRig(t, proxy.Options{})
	para := strings.Repeat("All work and no play makes a long answer. ", 40) // about 1.7 kB
	long := strings.TrimSpace(strings.Repeat(para+"\n\n", 80))               // about 137 kB
	r.up.Reply(long)
	chatVia(t, r.client(), &api.ChatRequest{Model: "llama3.2", Messages: []api.Message{{Role: "user", Content: "Write at length."}}})
	es := r.chatEntries()
	if len(es) != 2 {
		t.Fatalf("%d entries, want the user's turn and the reply", len(es))
	}
	reply := es[1]
	if len(reply.Tags) != 2 || !strings.HasPrefix(reply.Tags[0], "chat/") {
		t.Errorf("reply tags = %q", reply.Tags)
	}
	if len(reply.Text) > dayfiles.MaxEntryText || !strings.HasPrefix(reply.Text, "llama3.2: All work") {
		t.Errorf("reply entry is %d bytes, starting %.40q", len(reply.Text), reply.Text)
	}
	whole := "llama3.2: " + long
	rel := restLink(t, reply.Text)
	got, err := os.ReadFile(filepath.Join(r.dir, filepath.FromSlash(rel)))
	if err != nil || string(got) != whole {
		t.Fatalf("rest file %s: %d bytes, %v; want the whole reply, %d bytes", rel, len(got), err, len(whole))
	}
}

// restLink returns the rest file an entry's text links to.
func restLink(t testing.TB, text string) string {
	t.Helper()
	m := regexp.MustCompile(`\]\(\.\./\.\./\.\./(rest/[^)]+)\)`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no link to a rest file in %.200q…", text)
	}
	return m[1]
}
