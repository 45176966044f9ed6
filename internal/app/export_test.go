package app

import (
	"context"

	"github.com/daybook/daybook/internal/models/ollama"
)

// What the external tests (package app_test) reach inside an App.

// RecordUse is usagePart.record.
func RecordUse(a *App, ids []string) { a.use.record(ids) }

// FlushUse is usagePart.flush.
func FlushUse(a *App) error { return a.use.flush() }

// UpgradePass does the background upgrade once (ollama.Upgrader.Pass),
// when ollama.enabled: the test of one turn of UpgradeLoop.
func UpgradePass(ctx context.Context, a *App) (ollama.UpgradeReport, error) {
	if !a.cfg.Ollama.Enabled {
		return ollama.UpgradeReport{}, nil
	}
	return a.Models.upg.Pass(ctx)
}
