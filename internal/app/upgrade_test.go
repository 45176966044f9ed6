package app_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	ollamaapi "github.com/ollama/ollama/api"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/daybooktest"
	"github.com/daybook/daybook/internal/models/offline"
	"github.com/daybook/daybook/internal/models/ollama/ollamatest"
)

// fakeClock is the App's clock in these tests: Ollama's cooldown runs on it.
type fakeClock = daybooktest.Clock

var newFakeClock = daybooktest.NewClock

// ollamaApp is an App with ollama.enabled against url, on dir, at c's time.
// ollamaApp returns an App with Ollama enabled at url, on c's clock; opts
// pace its upgrade.
func ollamaApp(t *testing.T, dir, url, summaryModel string, c *fakeClock, opts app.Options) *app.App {
	t.Helper()
	cfg := config.Default()
	cfg.Timezone = "UTC"
	cfg.Ollama.Enabled, cfg.Ollama.URL = true, url
	cfg.Ollama.Timeout, cfg.Ollama.EmbedTimeout = 2*time.Second, 2*time.Second
	if summaryModel != "" {
		cfg.Ollama.SummaryModel = summaryModel
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	opts.Now = c.Now
	a := app.NewWith(dir, cfg, nil, opts)
	t.Cleanup(func() { a.Close() })
	return a
}

// writeDays writes a few closed days: two in February 2026, one in March.
func writeDays(t *testing.T, dir string) {
	t.Helper()
	at := func(day string, h int) time.Time {
		d, _ := time.Parse("2006-01-02", day)
		return d.Add(time.Duration(h) * time.Hour)
	}
	es := []dayfiles.NewEntry{
		{At: at("2026-02-10", 9), Text: "Kayak trip on the lake with Maria #outdoors"},
		{At: at("2026-02-11", 10), Text: "Chose Argon2 over bcrypt for password hashing", Kind: "decision"},
		{At: at("2026-03-02", 11), Text: "Lunch with Maria at the harbour"},
	}
	if _, err := daybooktest.AppendMany(dir, time.UTC, es); err != nil {
		t.Fatal(err)
	}
}

func summarizerOf(t *testing.T, dir, rel string) string {
	t.Helper()
	s, err := consolidate.ReadSummary(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return s.Summarizer
}

// chatLog records when each chat request came.
type chatLog struct {
	mu    sync.Mutex
	times []time.Time
}

func (l *chatLog) script(srv *ollamatest.Server, fail func(n int) bool) {
	srv.OnChat(func(n int, _ *ollamaapi.ChatRequest) ollamatest.ChatReply {
		l.mu.Lock()
		l.times = append(l.times, time.Now())
		l.mu.Unlock()
		if fail != nil && fail(n) {
			return ollamatest.ChatReply{Status: 500, Error: "llama runner process has terminated"}
		}
		return ollamatest.ChatReply{Content: "They paddled across the lake and settled the hashing question."}
	})
}

func (l *chatLog) gaps() []time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []time.Duration
	for i := 1; i < len(l.times); i++ {
		out = append(out, l.times[i].Sub(l.times[i-1]))
	}
	return out
}

var summaryRels = []string{"summaries/2026/02/10.md", "summaries/2026/02/11.md", "summaries/2026/03/02.md", "summaries/2026/02.md"}

// TestOllamaOutageThenUpgrade: Ollama is down when the App starts: the
// index opens, summaries are written offline, text recall works and says
// vectors are off, status names the outage. Ollama comes back: one pass
// fills the vectors and redoes the offline summaries with the model, paced,
// except the one a person edited.
func TestOllamaOutageThenUpgrade(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	writeDays(t, dir)
	srv := ollamatest.NewDown(t, "llama3.2", "nomic-embed-text")
	var chats chatLog
	chats.script(srv, nil)
	c := newFakeClock(time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC))
	const pause = 50 * time.Millisecond
	a := ollamaApp(t, dir, srv.URL, "", c, app.Options{UpgradePause: pause})

	start := time.Now()
	if _, err := a.Index(ctx); err != nil {
		t.Fatalf("opening the index with ollama down: %v", err)
	}
	t.Logf("index open + sync with ollama down: %s", time.Since(start).Round(time.Millisecond))
	if _, err := a.Consolidate(ctx, daybook.ConsolidateRequest{}); err != nil {
		t.Fatal(err)
	}
	for _, rel := range summaryRels {
		if got := summarizerOf(t, dir, rel); got != offline.SummarizerName {
			t.Fatalf("%s written by %q during the outage", rel, got)
		}
	}
	start = time.Now()
	resp, err := a.Recall(ctx, daybook.RecallRequest{Query: "kayak", Explain: true})
	if err != nil {
		t.Fatalf("recall during the outage: %v", err)
	}
	t.Logf("recall with ollama down: %s (%s)", time.Since(start).Round(time.Microsecond), resp.Method)
	if len(resp.Results) == 0 || !strings.Contains(resp.Results[0].Snippet, "Kayak") && !strings.Contains(resp.Results[0].Snippet, "kayak") {
		t.Fatalf("text recall during the outage: %+v", resp.Results)
	}
	if !resp.Method.VectorsOff {
		t.Fatalf("explain does not say vectors are off: method %q", resp.Method)
	}
	st, err := a.Status(ctx, daybook.StatusRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Summarizer != "offline/extractive-v2 (ollama unreachable since 09:00)" {
		t.Errorf("status summarizer %q", st.Summarizer)
	}
	if !strings.HasPrefix(st.Embedder, "ollama/nomic-embed-text (ollama unreachable since 09:00; vectors waiting: ") {
		t.Errorf("status embedder %q", st.Embedder)
	}
	if st.Index.Vectors != 0 || st.Index.Documents == 0 {
		t.Errorf("index during the outage: %+v", st.Index)
	}

	rep, err := app.UpgradePass(ctx, a)
	if err != nil || rep.Redone != 0 || rep.Left != 4 || rep.RetryAt.IsZero() {
		t.Fatalf("upgrade pass with ollama down: %+v, %v", rep, err)
	}

	// A person edits one of the offline-made summaries.
	edited := filepath.Join(dir, "summaries/2026/02/11.md")
	data, err := os.ReadFile(edited)
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.Replace(string(data), "# ", "# My own words.\n\n# ", 1))
	if err := os.WriteFile(edited, data, 0o644); err != nil {
		t.Fatal(err)
	}

	srv.Up(t)
	c.Add(3 * time.Minute) // past the cooldown
	start = time.Now()
	rep, err = app.UpgradePass(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("upgrade pass: %+v in %s, gaps between chats %v", rep, time.Since(start).Round(time.Millisecond), chats.gaps())
	if rep.Redone != 3 || rep.Kept != 1 || rep.Left != 0 || rep.Filled != st.Index.Documents || rep.VectorsLeft != 0 {
		t.Fatalf("upgrade pass with ollama back: %+v (documents %d)", rep, st.Index.Documents)
	}
	for _, rel := range summaryRels {
		want := "ollama/llama3.2"
		if rel == "summaries/2026/02/11.md" {
			want = offline.SummarizerName
		}
		if got := summarizerOf(t, dir, rel); got != want {
			t.Errorf("%s: written by %q, want %q", rel, got, want)
		}
	}
	if now, _ := os.ReadFile(edited); string(now) != string(data) {
		t.Errorf("the hand-edited summary was rewritten:\n%s", now)
	}
	for i, g := range chats.gaps() {
		if g < pause {
			t.Errorf("chat %d came %s after the one before; the pause is %s", i+2, g, pause)
		}
	}
	st, _ = a.Status(ctx, daybook.StatusRequest{})
	if st.Summarizer != "ollama/llama3.2" || st.Embedder != "ollama/nomic-embed-text" {
		t.Errorf("status after the upgrade: %q, %q", st.Summarizer, st.Embedder)
	}
	if st.Index.Vectors != st.Index.Documents {
		t.Errorf("index after the upgrade: %+v", st.Index)
	}
	resp, err = a.Recall(ctx, daybook.RecallRequest{Query: "kayak", Explain: true})
	if err != nil || resp.Method.VectorsOff || len(resp.Results) == 0 {
		t.Fatalf("recall after the upgrade: %q %+v %v", resp.Method, resp.Results, err)
	}
	cos := 0.0
	for _, r := range resp.Results {
		cos = max(cos, r.Explain.Cosine)
	}
	if cos == 0 {
		t.Errorf("no result has a cosine after the vectors were filled: %+v", resp.Results)
	}

	n := srv.Calls("/api/chat")
	if rep, err := app.UpgradePass(ctx, a); err != nil || rep.Redone != 0 || rep.Left != 0 || srv.Calls("/api/chat") != n {
		t.Fatalf("a second pass had work: %+v, %v", rep, err)
	}
}

// TestUpgradeStopsWhenOllamaGoesAway: the pass stops at the first failure;
// what is left waits for the cooldown, then the next pass finishes it.
func TestUpgradeStopsWhenOllamaGoesAway(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	writeDays(t, dir)
	srv := ollamatest.NewDown(t, "llama3.2", "nomic-embed-text")
	var chats chatLog
	var failing atomic.Bool
	chats.script(srv, func(int) bool { return failing.Load() })
	c := newFakeClock(time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC))
	a := ollamaApp(t, dir, srv.URL, "", c, app.Options{UpgradePause: time.Millisecond})
	if _, err := a.Consolidate(ctx, daybook.ConsolidateRequest{}); err != nil {
		t.Fatal(err)
	}
	srv.Up(t)
	c.Add(3 * time.Minute)
	// The first summary goes through, then Ollama's runner fails.
	srv.OnChat(func(n int, _ *ollamaapi.ChatRequest) ollamatest.ChatReply {
		if n > 1 {
			return ollamatest.ChatReply{Status: 500, Error: "llama runner process has terminated"}
		}
		return ollamatest.ChatReply{Content: "They paddled across the lake."}
	})
	rep, err := app.UpgradePass(ctx, a)
	if err != nil || rep.Redone != 1 || rep.Left != 3 || rep.RetryAt.IsZero() {
		t.Fatalf("pass with ollama going away: %+v, %v", rep, err)
	}
	st, _ := a.Status(ctx, daybook.StatusRequest{})
	if !strings.HasPrefix(st.Summarizer, "offline/extractive-v2 (ollama unavailable since 09:03") {
		t.Errorf("status summarizer %q", st.Summarizer)
	}
	calls := srv.Calls("/api/chat")
	if rep, _ := app.UpgradePass(ctx, a); rep.Redone != 0 || srv.Calls("/api/chat") != calls {
		t.Fatalf("a pass inside the cooldown asked ollama: %+v", rep)
	}
	srv.Reply("They paddled across the lake.")
	c.Add(3 * time.Minute)
	rep, err = app.UpgradePass(ctx, a)
	if err != nil || rep.Redone != 3 || rep.Left != 0 {
		t.Fatalf("pass once ollama is back: %+v, %v", rep, err)
	}
	for _, rel := range summaryRels {
		if got := summarizerOf(t, dir, rel); got != "ollama/llama3.2" {
			t.Errorf("%s written by %q", rel, got)
		}
	}
}

// TestSummaryModelChange: with another summary_model in the config, the
// summaries of the old model are redone in the background by the new one.
func TestSummaryModelChange(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	writeDays(t, dir)
	srv := ollamatest.New(t, "llama3.2", "mistral", "nomic-embed-text")
	srv.Reply("They paddled across the lake.")
	c := newFakeClock(time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC))
	a := ollamaApp(t, dir, srv.URL, "", c, app.Options{})
	if _, err := a.Consolidate(ctx, daybook.ConsolidateRequest{}); err != nil {
		t.Fatal(err)
	}
	if got := summarizerOf(t, dir, summaryRels[0]); got != "ollama/llama3.2" {
		t.Fatalf("written by %q", got)
	}
	a.Close()

	b := ollamaApp(t, dir, srv.URL, "mistral", c, app.Options{UpgradePause: time.Millisecond})
	rep, err := app.UpgradePass(ctx, b)
	if err != nil || rep.Redone != 4 || rep.Left != 0 {
		t.Fatalf("pass after the model change: %+v, %v", rep, err)
	}
	for _, rel := range summaryRels {
		if got := summarizerOf(t, dir, rel); got != "ollama/mistral" {
			t.Errorf("%s written by %q", rel, got)
		}
	}
	chats := srv.Chats()
	if last := chats[len(chats)-1]; last.Model != "mistral" {
		t.Errorf("the last chat went to %q", last.Model)
	}
}

// TestUpgradeLoop: the loop the daemon starts does the work once Ollama is
// back and returns nil when its context ends; without Ollama it returns at
// once.
func TestUpgradeLoop(t *testing.T) {
	dir := t.TempDir()
	writeDays(t, dir)
	srv := ollamatest.NewDown(t, "llama3.2", "nomic-embed-text")
	srv.Reply("They paddled across the lake.")
	c := newFakeClock(time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC))
	a := ollamaApp(t, dir, srv.URL, "", c, app.Options{UpgradePause: time.Millisecond, UpgradeEvery: 10 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := a.Index(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Consolidate(ctx, daybook.ConsolidateRequest{}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- a.UpgradeLoop(ctx) }()
	srv.Up(t)
	c.Add(3 * time.Minute)
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, _ := a.Status(ctx, daybook.StatusRequest{})
		if summarizerOf(t, dir, "summaries/2026/02.md") == "ollama/llama3.2" && st.Index.Vectors == st.Index.Documents {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the loop did not upgrade: %+v", st)
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("the loop returned %v", err)
	}
	if err := newApp(t, t.TempDir()).UpgradeLoop(context.Background()); err != nil {
		t.Fatalf("without ollama: %v", err)
	}
}
