package ollama

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook/internal/models/offline"
	"github.com/daybook/daybook/internal/models/ollama/ollamatest"
)

func newFallback(t *testing.T, url string) (*FallbackSummarizer, *logBuffer, *fakeClock) {
	log, lb := newLog(t)
	s, err := NewSummarizer(testConfig(url), log)
	if err != nil {
		t.Fatal(err)
	}
	f := WithFallback(s, offline.NewSummarizer(), log)
	clock := &fakeClock{now: time.Date(2026, 11, 23, 2, 0, 0, 0, time.UTC)}
	f.SetClock(clock.Now, time.Minute)
	return f, lb, clock
}

func TestFallbackUsesOllama(t *testing.T) {
	srv := ollamatest.New(t, "llama3.2")
	srv.Reply(goodSummary)
	f, lb, _ := newFallback(t, srv.URL)
	out, name, err := f.SummarizeNamed(context.Background(), dayInput(2))
	if err != nil || out != goodSummary || name != "ollama/llama3.2" {
		t.Fatalf("got %q by %q, err %v", out, name, err)
	}
	if f.Name() != "ollama/llama3.2" || f.InUse() != "ollama/llama3.2" {
		t.Errorf("Name %q InUse %q", f.Name(), f.InUse())
	}
	if n := lb.count("WARN", ""); n != 0 {
		t.Errorf("%d warnings with Ollama up", n)
	}
}

// TestFallbackWarnsOnce: 100 summaries while Ollama is down all come from the
// offline summarizer, with one warning; Ollama is asked again only after the
// cooldown; when it is back that is logged once, and a new outage warns again.
func TestFallbackWarnsOnce(t *testing.T) {
	srv := ollamatest.New(t, "llama3.2")
	srv.Reply(goodSummary)
	srv.OnChat(func(int, *api.ChatRequest) ollamatest.ChatReply {
		return ollamatest.ChatReply{Status: 503, Error: "server busy"}
	})
	f, lb, clock := newFallback(t, srv.URL)
	in := dayInput(3)
	for i := range 100 {
		out, name, err := f.SummarizeNamed(context.Background(), in)
		if err != nil || name != offline.SummarizerName || out == "" {
			t.Fatalf("summary %d: %q by %q, err %v; want the offline one", i, out, name, err)
		}
		clock.Add(5 * time.Second) // 100 summaries over 500s: the cooldown of 1m passes 8 times
	}
	if n := lb.count("WARN", "ollama unavailable"); n != 1 {
		t.Errorf("%d warnings for 100 failures, want 1", n)
	}
	if got, want := srv.Calls("/api/chat"), 9; got != want {
		t.Errorf("Ollama asked %d times in 500s with a 1m cooldown, want %d", got, want)
	}
	if down, _, err := f.Outage(); !down || !strings.Contains(err.Error(), "server busy") {
		t.Errorf("Outage() = %v, %v", down, err)
	}
	if f.InUse() != offline.SummarizerName || f.Name() != offline.SummarizerName {
		t.Errorf("InUse %q Name %q during the outage", f.InUse(), f.Name())
	}

	srv.Reply(goodSummary)
	clock.Add(time.Minute)
	if _, name, _ := f.SummarizeNamed(context.Background(), in); name != "ollama/llama3.2" {
		t.Fatalf("after recovery written by %q", name)
	}
	if n := lb.count("INFO", "ollama answers again"); n != 1 {
		t.Errorf("%d recovery lines, want 1", n)
	}
	if f.InUse() != "ollama/llama3.2" {
		t.Errorf("InUse %q after recovery", f.InUse())
	}

	srv.OnChat(func(int, *api.ChatRequest) ollamatest.ChatReply {
		return ollamatest.ChatReply{Status: 404, Error: "gone"}
	})
	for range 10 {
		f.Summarize(context.Background(), in)
	}
	if n := lb.count("WARN", "ollama unavailable"); n != 2 {
		t.Errorf("%d warnings after a second outage, want 2", n)
	}
}

func TestFallbackServerDown(t *testing.T) {
	f, lb, _ := newFallback(t, ollamatest.DeadURL(t))
	out, err := f.Summarize(context.Background(), dayInput(3))
	if err != nil || out == "" {
		t.Fatalf("got %q, %v; want the offline summary", out, err)
	}
	if lb.count("WARN", "connection refused") != 1 {
		t.Errorf("the warning does not say why:\n%s", lb.String())
	}
}

// TestFallbackCanceled: a shutdown is not handed to the offline summarizer.
func TestFallbackCanceled(t *testing.T) {
	srv := ollamatest.New(t, "llama3.2")
	srv.OnChat(func(int, *api.ChatRequest) ollamatest.ChatReply { return ollamatest.ChatReply{Delay: time.Minute} })
	f, lb, _ := newFallback(t, srv.URL)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := f.Summarize(ctx, dayInput(1)); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the context's", err)
	}
	if lb.count("WARN", "") != 0 {
		t.Errorf("a canceled summary counted as an outage")
	}
}
