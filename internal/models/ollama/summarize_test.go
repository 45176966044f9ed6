package ollama

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/models/ollama/ollamatest"
)

const goodSummary = "They spent the day on the parser and kept notes on each step that broke."

func TestSummarizeDay(t *testing.T) {
	srv := ollamatest.New(t, "llama3.2")
	srv.Reply(goodSummary)
	s, err := NewSummarizer(testConfig(srv.URL), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Name(); got != "ollama/llama3.2" {
		t.Errorf("Name() = %q", got)
	}
	in := dayInput(3)
	in.Items = append(in.Items, consolidate.Item{ID: "n1", Kind: "text", Text: "A free note\nover two lines."})
	out, err := s.Summarize(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if out != goodSummary {
		t.Errorf("summary = %q, want the streamed answer put together", out)
	}
	chats := srv.Chats()
	if len(chats) != 1 {
		t.Fatalf("%d chat requests, want 1", len(chats))
	}
	req := chats[0]
	if req.Model != "llama3.2" || req.Stream != nil {
		t.Errorf("model %q stream %v; want llama3.2 and the default (streamed)", req.Model, req.Stream)
	}
	if len(req.Messages) != 2 || req.Messages[0].Role != "system" || req.Messages[1].Role != "user" {
		t.Fatalf("messages = %+v", req.Messages)
	}
	if !strings.Contains(req.Messages[0].Content, "third person") || !strings.Contains(req.Messages[0].Content, "Never invent") {
		t.Errorf("system prompt misses the rules: %q", req.Messages[0].Content)
	}
	user := req.Messages[1].Content
	for _, want := range []string{"the day 2026-11-22", "about 120 words", "- 08:00 [note] Worked on the parser, step 0", "#parser", "- [text] A free note over two lines."} {
		if !strings.Contains(user, want) {
			t.Errorf("prompt lacks %q:\n%s", want, user)
		}
	}
	if got := req.Options["num_ctx"]; got != float64(8192) {
		t.Errorf("num_ctx = %v, want the configured context_tokens", got)
	}
}

func TestSummarizeLevels(t *testing.T) {
	srv := ollamatest.New(t, "llama3.2")
	srv.Reply(goodSummary)
	s, _ := NewSummarizer(testConfig(srv.URL), nil)
	for _, tc := range []struct {
		in   consolidate.Input
		want string
	}{
		{consolidate.Input{Level: date.LevelMonth, Period: "2026-11", Items: []consolidate.Item{{ID: "day:2026-11-22", When: "2026-11-22", Kind: "summary", Text: "A day."}}}, "the month 2026-11 in about 250 words from the summaries of its days"},
		{consolidate.Input{Level: date.LevelYear, Period: "2026", WordLimit: 300, Items: []consolidate.Item{{ID: "month:2026-11", When: "2026-11", Kind: "summary", Text: "A month."}}}, "the year 2026 in about 300 words from the summaries of its months"},
	} {
		if _, err := s.Summarize(context.Background(), tc.in); err != nil {
			t.Fatal(err)
		}
		chats := srv.Chats()
		if got := chats[len(chats)-1].Messages[1].Content; !strings.Contains(got, tc.want) || !strings.Contains(got, "- "+tc.in.Items[0].When+" A ") {
			t.Errorf("%s prompt = %q, want %q and the item", tc.in.Level, got, tc.want)
		}
	}
}

// TestSummarizeFailures runs every way Ollama fails through the real client:
// each is an error matching ErrUnavailable, so the fallback can take over.
func TestSummarizeFailures(t *testing.T) {
	long := nWords(400)
	for _, tc := range []struct {
		name    string
		reply   ollamatest.ChatReply
		model   string // pulled model; "" is llama3.2
		calls   int    // chat requests made
		wantErr string
	}{
		{name: "model not found", model: "mistral", calls: 1, wantErr: "model 'llama3.2' not found"},
		{name: "server error", reply: ollamatest.ChatReply{Status: http.StatusInternalServerError, Error: "llama runner process has terminated"}, calls: 1, wantErr: "runner process has terminated"},
		{name: "malformed json", reply: ollamatest.ChatReply{Content: goodSummary, Malformed: true}, calls: 1, wantErr: `{"model"`},
		{name: "stream cut mid-line", reply: ollamatest.ChatReply{Content: goodSummary, Cut: true}, calls: 1, wantErr: `"con`},
		{name: "stream ended early", reply: ollamatest.ChatReply{Content: goodSummary, Stop: true}, calls: 1, wantErr: "cut off: the stream ended without its final message after 26 bytes"},
		{name: "error mid-stream", reply: ollamatest.ChatReply{Content: goodSummary, StreamError: "out of memory"}, calls: 1, wantErr: "out of memory"},
		{name: "empty answer", reply: ollamatest.ChatReply{Content: ""}, calls: 3, wantErr: "empty"},
		{name: "too long", reply: ollamatest.ChatReply{Content: long}, calls: 3, wantErr: "400 words, far more than the 120"},
		{name: "cut at the output limit", reply: ollamatest.ChatReply{Content: goodSummary, DoneReason: "length"}, calls: 3, wantErr: "output limit"},
		{name: "preamble", reply: ollamatest.ChatReply{Content: "Sure, here is a summary: " + goodSummary}, calls: 3, wantErr: "preamble"},
		{name: "heading", reply: ollamatest.ChatReply{Content: "## Summary\n\n" + goodSummary}, calls: 3, wantErr: "heading"},
		{name: "front matter", reply: ollamatest.ChatReply{Content: "---\nmodel: x\n---\n" + goodSummary}, calls: 3, wantErr: "fence"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := tc.model
			if model == "" {
				model = "llama3.2"
			}
			srv := ollamatest.New(t, model)
			srv.OnChat(func(int, *api.ChatRequest) ollamatest.ChatReply { return tc.reply })
			s, _ := NewSummarizer(testConfig(srv.URL), nil)
			out, err := s.Summarize(context.Background(), dayInput(2))
			if err == nil {
				t.Fatalf("no error; summary %q", out)
			}
			if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("err = %v; want ErrUnavailable saying %q", err, tc.wantErr)
			}
			if got := srv.Calls("/api/chat"); got != tc.calls {
				t.Errorf("%d chat requests, want %d", got, tc.calls)
			}
		})
	}
}

func TestSummarizeDown(t *testing.T) {
	s, _ := NewSummarizer(testConfig(ollamatest.DeadURL(t)), nil)
	_, err := s.Summarize(context.Background(), dayInput(1))
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("err = %v; want ErrUnavailable, connection refused", err)
	}
}

func TestSummarizeSlow(t *testing.T) {
	srv := ollamatest.New(t, "llama3.2")
	srv.OnChat(func(int, *api.ChatRequest) ollamatest.ChatReply {
		return ollamatest.ChatReply{Content: goodSummary, Delay: time.Minute}
	})
	cfg := testConfig(srv.URL)
	cfg.Timeout = 100 * time.Millisecond
	s, _ := NewSummarizer(cfg, nil)
	start := time.Now()
	_, err := s.Summarize(context.Background(), dayInput(1))
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "no answer within ollama.timeout 100ms") {
		t.Errorf("err = %v; want ErrUnavailable naming the timeout", err)
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("took %v: the timeout did not end the request", took)
	}
}

// TestSummarizeCanceled: the caller's own cancellation is not an outage.
func TestSummarizeCanceled(t *testing.T) {
	srv := ollamatest.New(t, "llama3.2")
	srv.OnChat(func(int, *api.ChatRequest) ollamatest.ChatReply {
		return ollamatest.ChatReply{Content: goodSummary, Delay: time.Minute}
	})
	s, _ := NewSummarizer(testConfig(srv.URL), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := s.Summarize(ctx, dayInput(1))
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrUnavailable) {
		t.Errorf("err = %v; want the caller's context error, not ErrUnavailable", err)
	}
}

// TestSummarizeRetry: a refused answer is sent back with the reason, and a
// good second answer is used.
func TestSummarizeRetry(t *testing.T) {
	srv := ollamatest.New(t, "llama3.2")
	srv.Reply("Here is the summary you asked for: "+goodSummary, "  "+goodSummary+"\n")
	s, _ := NewSummarizer(testConfig(srv.URL), nil)
	out, err := s.Summarize(context.Background(), dayInput(2))
	if err != nil {
		t.Fatal(err)
	}
	if out != goodSummary {
		t.Errorf("summary = %q", out)
	}
	chats := srv.Chats()
	if len(chats) != 2 {
		t.Fatalf("%d chats, want 2", len(chats))
	}
	msgs := chats[1].Messages
	if len(msgs) != 4 || msgs[2].Role != "assistant" || !strings.HasPrefix(msgs[2].Content, "Here is") ||
		!strings.Contains(msgs[3].Content, "preamble") {
		t.Errorf("retry conversation = %+v", msgs)
	}
}

// TestSummarizeMapReduce: an input four times the context is summarised in
// parts, each fitting the context, and the parts combined.
func TestSummarizeMapReduce(t *testing.T) {
	srv := ollamatest.New(t, "llama3.2")
	srv.Reply(goodSummary)
	cfg := testConfig(srv.URL)
	cfg.ContextTokens = 2048
	s, _ := NewSummarizer(cfg, nil)
	in := dayInput(400) // about 70 characters an item: 28,000 characters, 7,000 tokens
	budget := s.bodyBudget(in.WordLimit)
	size := 0
	for _, it := range in.Items {
		size += len(render(it)) + 1
	}
	parts := (size + budget - 1) / budget
	if _, err := s.Summarize(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	chats := srv.Chats()
	t.Logf("input %d chars, budget %d chars a part: %d requests", size, budget, len(chats))
	if len(chats) < parts+1 || len(chats) > parts+2 {
		t.Fatalf("%d chat requests; want about %d parts and one combining", len(chats), parts)
	}
	seen := 0
	for i, c := range chats[:len(chats)-1] {
		u := c.Messages[1].Content
		if !strings.Contains(u, "part ") || estimateTokens(systemPrompt+u) > cfg.ContextTokens {
			t.Errorf("request %d: %d tokens, not a part that fits: %.80q", i+1, estimateTokens(u), u)
		}
		seen += strings.Count(u, "Worked on the parser")
	}
	if seen != len(in.Items) {
		t.Errorf("the parts hold %d items, want all %d once", seen, len(in.Items))
	}
	last := chats[len(chats)-1].Messages[1].Content
	if !strings.Contains(last, "Combine them") || !strings.Contains(last, "- part 1: "+goodSummary) {
		t.Errorf("last request does not combine the parts: %.200q", last)
	}
}

func TestSplitLongLine(t *testing.T) {
	line := strings.Repeat("word ", 100) // 500 bytes
	chunks := split([]string{"short", line, "tail"}, 120, false)
	total := 0
	for _, ch := range chunks {
		size := 0
		for _, l := range ch {
			size += len(l) + 1
			total += len(strings.Fields(l))
		}
		if size > 121 {
			t.Errorf("chunk of %d bytes past the budget: %q", size, ch)
		}
	}
	if total != 102 {
		t.Errorf("%d words after splitting, want 102", total)
	}
}
