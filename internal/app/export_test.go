package app

import (
	"context"

	"github.com/daybook/daybook/internal/models/ollama"
)

// What the external tests (package app_test) reach inside an App.

// RecordUse is App.recordUse.
func RecordUse(a *App, ids []string) { a.recordUse(ids) }

// FlushUse is App.flushUse.
func FlushUse(a *App) error { return a.flushUse() }

// UpgradePass does the background upgrade once (ollama.Upgrader.Pass),
// when ollama.enabled: the test of one turn of UpgradeLoop.
func UpgradePass(ctx context.Context, a *App) (ollama.UpgradeReport, error) {
	if !a.cfg.Ollama.Enabled {
		return ollama.UpgradeReport{}, nil
	}
	return a.upg.Pass(ctx)
}
