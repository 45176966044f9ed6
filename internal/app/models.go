package app

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/models/offline"
	"github.com/daybook/daybook/internal/models/ollama"
	"github.com/daybook/daybook/internal/util/logkey"
)

// models holds the summarizer and the embedder, built once per App so that
// an Ollama outage is followed (and logged) once, whoever asks.
type models struct {
	cfg config.Ollama
	log *slog.Logger
	now func() time.Time

	once       sync.Once
	summarizer consolidate.Summarizer
	embedder   index.Embedder
}

// newSummarizer returns the summarizer consolidation uses: Ollama with the
// offline summarizer as its fallback when ollama.enabled, else the offline
// one. Every call returns the same value.
func (a *App) newSummarizer() consolidate.Summarizer {
	a.models.build()
	return a.models.summarizer
}

// newEmbedder returns the embedder the index uses: Ollama behind an
// ollama.EmbedGuard when ollama.enabled (an outage gives errors matching
// ollama.ErrUnavailable: retry later, never another model's vectors), else
// the offline one. Every call returns the same value.
func (a *App) newEmbedder() index.Embedder {
	a.models.build()
	return a.models.embedder
}

func (m *models) build() {
	m.once.Do(func() {
		m.summarizer, m.embedder = offline.NewSummarizer(), offline.NewEmbedder()
		if !m.cfg.Enabled {
			return
		}
		log := m.log.With(logkey.System, "models")
		if s, err := ollama.NewSummarizer(m.cfg, m.log); err != nil {
			log.Warn("ollama summaries off; using the offline summarizer", "err", err)
		} else {
			f := ollama.WithFallback(s, m.summarizer, m.log)
			f.SetClock(m.now, ollama.DefaultCooldown)
			m.summarizer = f
		}
		if e, err := ollama.NewEmbedder(m.cfg, m.log); err != nil {
			log.Warn("ollama embeddings off; using the offline embedder", "err", err)
		} else {
			g := ollama.GuardEmbedder(e, m.log)
			g.SetClock(m.now, ollama.DefaultCooldown)
			m.embedder = g
		}
	})
}

// modelStatus fills in which summarizer and embedder are in use
// (ollama.SummarizerStatus, ollama.EmbedderStatus).
func (a *App) modelStatus(_ context.Context, resp *daybook.StatusResponse) {
	resp.Summarizer = ollama.SummarizerStatus(a.newSummarizer(), a.Loc(), a.upg.Left())
	pending := 0
	if x := a.Indexer.open(); x != nil {
		pending = x.VectorStatus().Pending
	}
	resp.Embedder = ollama.EmbedderStatus(a.newEmbedder(), a.Loc(), pending)
}
