package app

import (
	"context"

	"github.com/daybook/daybook/dayfiles/date"
)

// DaysChanged tells the parts that derive from day files that days changed
// on disk without going through the App: a person edited them, or a sync
// tool replaced them. The daemon's watcher calls it. The changes are merged
// first (package merge: entries a stale copy dropped are appended again,
// conflict copies merged in); then the same hooks run as after a write
// through the App, so the index refreshes the days' entries.
func (a *App) DaysChanged(ctx context.Context, days []date.Date) {
	if len(days) == 0 {
		return
	}
	a.keep.Changed(days)
	a.afterWrite(ctx, days)
}

// CatchUpEdits merges what changed in day files while no daemon watched
// them (the watcher reports only changes made while it runs), and the
// conflict copies sync tools left. The daemon calls it once it watches.
func (a *App) CatchUpEdits(ctx context.Context) {
	if days := a.keep.CatchUp(); len(days) > 0 {
		a.afterWrite(ctx, days)
	}
}
