package app

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/redact"
)

// Remember appends one entry to its day file.
func (a *App) Remember(ctx context.Context, req daybook.RememberRequest) (daybook.RememberResponse, error) {
	e, err := a.newEntry(req.Text, req.Kind, req.Tags, req.At)
	if err != nil {
		return daybook.RememberResponse{}, err
	}
	ensurePrivateDir(a.dir, a.log)
	a.zone.pin()
	entries := []dayfiles.NewEntry{e}
	ws, err := a.keep.Append(entries, nil)
	if err != nil {
		return daybook.RememberResponse{}, err
	}
	w := ws[0]
	a.afterWrite(ctx, []date.Date{w.Date})
	return daybook.RememberResponse{ID: w.ID, Date: w.Date.String(), Path: w.Rel, Line: w.Line}, nil
}

// newEntry validates an entry as the API states it, in the configured window
// of dates.
func (a *App) newEntry(text, kind string, tags []string, at string) (dayfiles.NewEntry, error) {
	return a.newEntryIn(text, kind, tags, at, a.cfg.Window())
}

// newEntryIn is newEntry in window w: date.AnyDate() is the override an
// import of an old journal asks for explicitly.
func (a *App) newEntryIn(text, kind string, tags []string, at string, w date.Window) (dayfiles.NewEntry, error) {
	k, err := dayfiles.ParseKind(kind)
	if err != nil {
		return dayfiles.NewEntry{}, userErr(err)
	}
	t := a.now()
	if at != "" {
		if t, err = date.ParseTime(at, a.now(), a.Loc()); err != nil {
			return dayfiles.NewEntry{}, userErr(err)
		}
		if err := date.CheckWall(at, t, a.Loc()); err != nil {
			return dayfiles.NewEntry{}, userErr(err)
		}
	}
	if err := w.Check(date.Of(t.In(a.Loc())), a.Today()); err != nil {
		return dayfiles.NewEntry{}, userErr(err)
	}
	// Every way in (CLI, socket, MCP, hooks, the proxy and chat, import)
	// comes here: no adapter can forget to remove secrets. A text over the
	// limit of an entry is refused by Validate, not read through first.
	if len(text) <= dayfiles.MaxEntryText {
		if clean, found := redact.Text(text); found {
			text = clean
			a.log.Info("removed a secret from an entry before writing it", "at", t.Format(time.RFC3339))
		}
	}
	e := dayfiles.NewEntry{At: t.Truncate(time.Minute), Kind: k, Text: text, Tags: tags}
	if err := e.Validate(); err != nil {
		return dayfiles.NewEntry{}, userErr(err)
	}
	return e, nil
}

// afterWrite tells the parts that derive from day files that days changed.
// Hooks are added by the index and the daemon. The days are written when
// this runs, so nothing a hook does may turn the write into a failure: a
// caller told so would write the entry again.
func (a *App) afterWrite(ctx context.Context, days []date.Date) {
	a.afterWriteIndexing(ctx, days, true)
}

// afterWriteIndexing is afterWrite, with the days indexed at once (now) or
// a moment later (RememberTurns).
func (a *App) afterWriteIndexing(ctx context.Context, days []date.Date, now bool) {
	if now {
		a.runWriteHook(ctx, a.Indexer.syncDays, days)
	} else {
		a.indexLater(days)
	}
	for _, h := range a.writeHooks.list() {
		a.runWriteHook(ctx, h, days)
	}
}

// runWriteHook runs h, and survives its panic: bleve has been seen to panic
// reading a segment it failed to write on a full disk. The index is then
// closed, to be opened (and repaired or rebuilt) on its next use; until
// then recall scans the day files.
func (a *App) runWriteHook(ctx context.Context, h func(context.Context, []date.Date), days []date.Date) {
	defer func() {
		if p := recover(); p != nil {
			a.log.Error("updating the index after a write failed; the day files are written, and the index catches up when it is next opened",
				"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			func() {
				defer func() { recover() }() // closing a broken index may panic too
				a.Indexer.drop()
			}()
		}
	}()
	h(ctx, days)
}
