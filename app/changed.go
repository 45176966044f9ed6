package app

import (
	"context"

	"github.com/daybook/daybook/date"
)

// DaysChanged tells the parts that derive from day files that days changed
// on disk without going through the App: a person edited them, or a sync
// tool replaced them. The daemon's watcher calls it; it runs the same hooks
// as a write through the App, so the index refreshes the days' entries.
func (a *App) DaysChanged(ctx context.Context, days []date.Date) {
	if len(days) == 0 {
		return
	}
	a.restoreVanished(ctx, days)
	a.afterWrite(ctx, days)
}
