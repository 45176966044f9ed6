package app

import (
	"context"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/merge"
	"github.com/daybook/daybook/internal/redact"
)

// Writer writes entries to the day files: one (Remember), a chat's turns
// (RememberTurns, ReplayTurns) or a whole import (Import, and its dry run
// PlanImport). Every entry is checked and freed of secrets here (newEntryIn),
// appended through the merge keeper, and the change is told to the parts
// that derive from day files (Changes).
type Writer struct {
	*env
	keep    *merge.Keeper
	changes *Changes
}

// Remember appends one entry to its day file.
func (wr *Writer) Remember(ctx context.Context, req daybook.RememberRequest) (daybook.RememberResponse, error) {
	e, err := wr.newEntry(req.Text, req.Kind, req.Tags, req.At)
	if err != nil {
		return daybook.RememberResponse{}, err
	}
	ensurePrivateDir(wr.dir, wr.log)
	wr.zone.pin()
	entries := []dayfiles.NewEntry{e}
	ws, err := wr.keep.Append(entries, nil)
	if err != nil {
		return daybook.RememberResponse{}, err
	}
	w := ws[0]
	wr.changes.afterWrite(ctx, []date.Date{w.Date})
	return daybook.RememberResponse{ID: w.ID, Date: w.Date.String(), Path: w.Rel, Line: w.Line}, nil
}

// newEntry validates an entry as the API states it, in the configured window
// of dates.
func (wr *Writer) newEntry(text, kind string, tags []string, at string) (dayfiles.NewEntry, error) {
	return wr.newEntryIn(text, kind, tags, at, wr.cfg.Window())
}

// newEntryIn is newEntry in window w: date.AnyDate() is the override an
// import of an old journal asks for explicitly.
func (wr *Writer) newEntryIn(text, kind string, tags []string, at string, w date.Window) (dayfiles.NewEntry, error) {
	k, err := dayfiles.ParseKind(kind)
	if err != nil {
		return dayfiles.NewEntry{}, userErr(err)
	}
	t := wr.now()
	if at != "" {
		if t, err = date.ParseTime(at, wr.now(), wr.Loc()); err != nil {
			return dayfiles.NewEntry{}, userErr(err)
		}
		if err := date.CheckWall(at, t, wr.Loc()); err != nil {
			return dayfiles.NewEntry{}, userErr(err)
		}
	}
	if err := w.Check(date.Of(t.In(wr.Loc())), wr.Today()); err != nil {
		return dayfiles.NewEntry{}, userErr(err)
	}
	// Every way in (CLI, socket, MCP, hooks, the proxy and chat, import)
	// comes here: no adapter can forget to remove secrets. A text over the
	// limit of an entry is refused by Validate, not read through first.
	if len(text) <= dayfiles.MaxEntryText {
		if clean, found := redact.Text(text); found {
			text = clean
			wr.log.Info("removed a secret from an entry before writing it", "at", t.Format(time.RFC3339))
		}
	}
	e := dayfiles.NewEntry{At: t.Truncate(time.Minute), Kind: k, Text: text, Tags: tags}
	if err := e.Validate(); err != nil {
		return dayfiles.NewEntry{}, userErr(err)
	}
	return e, nil
}
