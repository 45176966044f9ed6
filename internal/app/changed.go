package app

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/merge"
)

// Changes tells the parts that derive from day files (the index, the
// context's kept files, the daemon's hooks) that days changed: written
// through the App (afterWrite), edited by hand or replaced by a sync tool
// (DaysChanged, CatchUpEdits). The index hears at once, or a moment later
// for a chat's turns (index_later.go).
type Changes struct {
	*env
	keep  *merge.Keeper
	index *Indexer
	hooks hooks[func(ctx context.Context, days []date.Date)] // after the index's (onWrite)
	later laterDays                                          // days whose indexing waits (index_later.go)
}

// onWrite registers fn to hear of every change of days, after the index.
func (c *Changes) onWrite(fn func(ctx context.Context, days []date.Date)) { c.hooks.add(fn) }

// DaysChanged tells the parts that derive from day files that days changed
// on disk without going through the App: a person edited them, or a sync
// tool replaced them. The daemon's watcher calls it. The changes are merged
// first (package merge: entries a stale copy dropped are appended again,
// conflict copies merged in); then the same hooks run as after a write
// through the App, so the index refreshes the days' entries.
func (c *Changes) DaysChanged(ctx context.Context, days []date.Date) {
	if len(days) == 0 {
		return
	}
	c.keep.Changed(days)
	c.afterWrite(ctx, days)
}

// CatchUpEdits merges what changed in day files while no daemon watched
// them (the watcher reports only changes made while it runs), and the
// conflict copies sync tools left. The daemon calls it once it watches.
func (c *Changes) CatchUpEdits(ctx context.Context) {
	if days := c.keep.CatchUp(); len(days) > 0 {
		c.afterWrite(ctx, days)
	}
}

// afterWrite tells the parts that derive from day files that days changed.
// The index hears first, then the hooks given to onWrite. The days are written when
// this runs, so nothing a hook does may turn the write into a failure: a
// caller told so would write the entry again.
func (c *Changes) afterWrite(ctx context.Context, days []date.Date) {
	c.afterWriteIndexing(ctx, days, true)
}

// afterWriteIndexing is afterWrite, with the days indexed at once (now) or
// a moment later (RememberTurns).
func (c *Changes) afterWriteIndexing(ctx context.Context, days []date.Date, now bool) {
	if now {
		c.runWriteHook(ctx, c.index.syncDays, days)
	} else {
		c.indexLater(days)
	}
	for _, h := range c.hooks.list() {
		c.runWriteHook(ctx, h, days)
	}
}

// runWriteHook runs h, and survives its panic: bleve has been seen to panic
// reading a segment it failed to write on a full disk. The index is then
// closed, to be opened (and repaired or rebuilt) on its next use; until
// then recall scans the day files.
func (c *Changes) runWriteHook(ctx context.Context, h func(context.Context, []date.Date), days []date.Date) {
	defer func() {
		if p := recover(); p != nil {
			c.log.Error("updating the index after a write failed; the day files are written, and the index catches up when it is next opened",
				"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			func() {
				defer func() { recover() }() // closing a broken index may panic too
				c.index.drop()
			}()
		}
	}()
	h(ctx, days)
}
