package app

import (
	"context"
	"time"

	"github.com/daybook/daybook/internal/models/ollama"
)

// newUpgrader builds the background upgrade (package ollama) over the
// App's parts: its summarizer, its consolidator (whose hooks index what is
// rewritten) and its index when open.
func (a *App) newUpgrader() *ollama.Upgrader {
	return &ollama.Upgrader{
		Dir:          a.dir,
		Summarizer:   a.newSummarizer,
		Consolidator: a.Consolidator,
		Vectors: func() ollama.VectorFiller {
			if x := a.Indexer.open(); x != nil {
				return x
			}
			return nil
		},
		Pause: a.opts.UpgradePause,
		Every: a.opts.UpgradeEvery,
		Now:   func() time.Time { return a.now() },
		Log:   a.log,
	}
}

// UpgradeLoop runs the upgrade passes (ollama.Upgrader.Loop) until ctx
// ends; the daemon starts it. Without ollama.enabled it returns nil at once.
func (a *App) UpgradeLoop(ctx context.Context) error {
	if !a.cfg.Ollama.Enabled {
		return nil
	}
	return a.upg.Loop(ctx)
}
