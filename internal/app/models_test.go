package app

import (
	"context"
	"strings"
	"testing"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/models/offline"
	"github.com/daybook/daybook/internal/models/ollama"
	"github.com/daybook/daybook/internal/models/ollama/ollamatest"
)

func TestModelsOffline(t *testing.T) {
	a := doctorApp(t, "")
	if got := a.Models.summarizer().Name(); got != offline.SummarizerName {
		t.Errorf("summarizer %q", got)
	}
	if got := a.Models.embedder().Name(); got != "offline/hash-v1" {
		t.Errorf("embedder %q", got)
	}
}

func TestModelsOllama(t *testing.T) {
	srv := ollamatest.New(t, "llama3.2", "nomic-embed-text")
	srv.Reply("They fixed the parser.")
	a := doctorApp(t, srv.URL)
	s := a.Models.summarizer()
	if s != a.Models.summarizer() {
		t.Error("a second call built a second summarizer")
	}
	if _, ok := s.(*ollama.FallbackSummarizer); !ok {
		t.Fatalf("summarizer is %T", s)
	}
	in := consolidate.Input{Level: date.LevelDay, Period: "2026-11-22", WordLimit: 120,
		Items: []consolidate.Item{{ID: "e1", When: "09:00", Kind: "fact", Text: "Fixed the parser."}}}
	if out, err := s.Summarize(context.Background(), in); err != nil || out != "They fixed the parser." {
		t.Errorf("summary %q, %v", out, err)
	}
	vecs, err := a.Models.embedder().Embed(context.Background(), []string{"a", "b"})
	if err != nil || len(vecs) != 2 {
		t.Errorf("%d vectors, %v", len(vecs), err)
	}
	var st daybook.StatusResponse
	a.Models.fillStatus(context.Background(), &st)
	if st.Summarizer != "ollama/llama3.2" || st.Embedder != "ollama/nomic-embed-text" {
		t.Errorf("status names %q, %q", st.Summarizer, st.Embedder)
	}

	srv.Close()
	if _, err := s.Summarize(context.Background(), in); err != nil {
		t.Errorf("no fallback with Ollama down: %v", err)
	}
	a.Models.fillStatus(context.Background(), &st)
	if !strings.HasPrefix(st.Summarizer, offline.SummarizerName+" (ollama unreachable since ") {
		t.Errorf("status summarizer %q during the outage", st.Summarizer)
	}
}
