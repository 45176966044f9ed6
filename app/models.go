package app

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/daybook/daybook/api"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/offline"
	"github.com/daybook/daybook/ollama"
	"github.com/daybook/daybook/words"
)

// models holds the summarizer and the embedder, built once per App so that
// an Ollama outage is followed (and logged) once, whoever asks.
type models struct {
	once       sync.Once
	summarizer consolidate.Summarizer
	embedder   index.Embedder
}

// NewSummarizer returns the summarizer consolidation uses: Ollama with the
// offline summarizer as its fallback when ollama.enabled, else the offline
// one. Every call returns the same value.
func (a *App) NewSummarizer() consolidate.Summarizer {
	a.buildModels()
	return a.models.summarizer
}

// NewEmbedder returns the embedder the index uses: Ollama behind an
// ollama.EmbedGuard when ollama.enabled (an outage gives errors matching
// ollama.ErrUnavailable: retry later, never another model's vectors), else
// the offline one. Every call returns the same value.
func (a *App) NewEmbedder() index.Embedder {
	a.buildModels()
	return a.models.embedder
}

func (a *App) buildModels() {
	a.models.once.Do(func() {
		m := &a.models
		m.summarizer, m.embedder = offline.NewSummarizer(), offline.NewEmbedder()
		cfg := a.Config.Ollama
		if !cfg.Enabled {
			return
		}
		log := a.Log.With("system", "models")
		now := func() time.Time { return a.Now() }
		if s, err := ollama.NewSummarizer(cfg, a.Log); err != nil {
			log.Warn("ollama summaries off; using the offline summarizer", "err", err)
		} else {
			f := ollama.WithFallback(s, m.summarizer, a.Log)
			f.SetClock(now, ollama.DefaultCooldown)
			m.summarizer = f
		}
		if e, err := ollama.NewEmbedder(cfg, a.Log); err != nil {
			log.Warn("ollama embeddings off; using the offline embedder", "err", err)
		} else {
			g := ollama.GuardEmbedder(e, a.Log)
			g.SetClock(now, ollama.DefaultCooldown)
			m.embedder = g
		}
	})
}

// ModelStatus fills in which summarizer and embedder are in use. During an Ollama outage the summarizer is the offline one, "since
// HH:MM"; the embedder stays Ollama's and says how many vectors wait.
func (a *App) ModelStatus(_ context.Context, resp *api.StatusResponse) {
	resp.Summarizer = a.summarizerStatus()
	resp.Embedder = a.embedderStatus()
}

func (a *App) summarizerStatus() string {
	s := a.NewSummarizer()
	f, ok := s.(*ollama.FallbackSummarizer)
	if !ok {
		return s.Name()
	}
	name := f.InUse()
	if down, since, err := f.Outage(); down {
		return fmt.Sprintf("%s (%s since %s)", name, outageWord(err), since.In(a.Loc()).Format("15:04"))
	}
	if n := a.upg.Left(); n > 0 {
		return fmt.Sprintf("%s (%s to upgrade)", name, words.Count(n, "summary"))
	}
	return name
}

func (a *App) embedderStatus() string {
	e := a.NewEmbedder()
	var notes []string
	if g, ok := e.(*ollama.EmbedGuard); ok {
		if down, since, err := g.Outage(); down {
			notes = append(notes, fmt.Sprintf("%s since %s", outageWord(err), since.In(a.Loc()).Format("15:04")))
		}
	}
	if x := a.openIndex(); x != nil {
		if vs := x.VectorStatus(); vs.Pending > 0 {
			notes = append(notes, fmt.Sprintf("vectors waiting: %d", vs.Pending))
		}
	}
	if len(notes) == 0 {
		return e.Name()
	}
	return e.Name() + " (" + strings.Join(notes, "; ") + ")"
}

// outageWord says what kind of outage err is.
func outageWord(err error) string {
	var ne net.Error
	switch {
	case ollama.IsModelMissing(err):
		return "model not pulled"
	case errors.As(err, &ne):
		return "ollama unreachable"
	}
	return "ollama unavailable"
}
