package app

import (
	"context"
	"sync"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/models/offline"
	"github.com/daybook/daybook/internal/models/ollama"
	"github.com/daybook/daybook/internal/util/logkey"
)

// Models is an App's models: the summarizer and the embedder, built once
// so that an Ollama outage is followed (and logged) once, whoever asks, and
// the background upgrade (package ollama) of the summaries and vectors made
// offline while Ollama was away.
type Models struct {
	*env
	index *Indexer         // whose missing vectors the upgrade fills, when open
	upg   *ollama.Upgrader // set by NewWith once the consolidator it rewrites with exists (setUpgrader)

	once sync.Once
	summ consolidate.Summarizer
	emb  index.Embedder
}

// summarizer returns the summarizer consolidation uses: Ollama with the
// offline summarizer as its fallback when ollama.enabled, else the offline
// one. Every call returns the same value.
func (m *Models) summarizer() consolidate.Summarizer {
	m.build()
	return m.summ
}

// embedder returns the embedder the index uses: Ollama behind an
// ollama.EmbedGuard when ollama.enabled (an outage gives errors matching
// ollama.ErrUnavailable: retry later, never another model's vectors), else
// the offline one. Every call returns the same value.
func (m *Models) embedder() index.Embedder {
	m.build()
	return m.emb
}

func (m *Models) build() {
	m.once.Do(func() {
		m.summ, m.emb = offline.NewSummarizer(), offline.NewEmbedder()
		cfg := m.cfg.Ollama
		if !cfg.Enabled {
			return
		}
		log := m.log.With(logkey.System, "models")
		if s, err := ollama.NewSummarizer(cfg, m.log); err != nil {
			log.Warn("ollama summaries off; using the offline summarizer", "err", err)
		} else {
			f := ollama.WithFallback(s, m.summ, m.log)
			f.SetClock(m.now, ollama.DefaultCooldown)
			m.summ = f
		}
		if e, err := ollama.NewEmbedder(cfg, m.log); err != nil {
			log.Warn("ollama embeddings off; using the offline embedder", "err", err)
		} else {
			g := ollama.GuardEmbedder(e, m.log)
			g.SetClock(m.now, ollama.DefaultCooldown)
			m.emb = g
		}
	})
}

// fillStatus fills in which summarizer and embedder are in use
// (ollama.SummarizerStatus, ollama.EmbedderStatus).
func (m *Models) fillStatus(_ context.Context, resp *daybook.StatusResponse) {
	resp.Summarizer = ollama.SummarizerStatus(m.summarizer(), m.Loc(), m.upg.Left())
	pending := 0
	if x := m.index.open(); x != nil {
		pending = x.VectorStatus().Pending
	}
	resp.Embedder = ollama.EmbedderStatus(m.embedder(), m.Loc(), pending)
}

// setUpgrader builds the background upgrade (package ollama) over the
// App's parts: the summarizer, the consolidator (whose hooks index what is
// rewritten) and the index when open. The pauses are Options'.
func (m *Models) setUpgrader(consolidator func() *consolidate.Consolidator, opts Options) {
	m.upg = &ollama.Upgrader{
		Dir:          m.dir,
		Summarizer:   m.summarizer,
		Consolidator: consolidator,
		Vectors: func() ollama.VectorFiller {
			if x := m.index.open(); x != nil {
				return x
			}
			return nil
		},
		Pause: opts.UpgradePause,
		Every: opts.UpgradeEvery,
		Now:   func() time.Time { return m.now() },
		Log:   m.log,
	}
}

// UpgradeLoop runs the upgrade passes (ollama.Upgrader.Loop) until ctx
// ends; the daemon starts it. Without ollama.enabled it returns nil at once.
func (m *Models) UpgradeLoop(ctx context.Context) error {
	if !m.cfg.Ollama.Enabled {
		return nil
	}
	return m.upg.Loop(ctx)
}
