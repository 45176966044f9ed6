package app

import (
	"context"
	"slices"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// rememberAll appends several entries in one write per day file, each as
// Remember would (its own time, kind and tags): the memory proxy writes a
// user's turn and the reply together (RememberTurns). Every entry is
// checked before any is written; on an error, those of the days written
// before it are kept, and the responses say which (an empty ID: not
// written). The days are indexed at once (indexNow) or a moment later.
func (a *App) rememberAll(ctx context.Context, reqs []daybook.RememberRequest, indexNow bool) ([]daybook.RememberResponse, error) {
	entries := make([]dayfiles.NewEntry, len(reqs))
	for i, req := range reqs {
		e, err := a.newEntry(req.Text, req.Kind, req.Tags, req.At)
		if err != nil {
			return nil, err
		}
		entries[i] = e
	}
	ensurePrivateDir(a.dir, a.log)
	a.zone.pin()
	ws, err := a.keep.Append(entries, nil)
	out := make([]daybook.RememberResponse, len(ws))
	var days []date.Date
	for i, w := range ws {
		if w.ID == "" {
			continue
		}
		out[i] = daybook.RememberResponse{ID: w.ID, Date: w.Date.String(), Path: w.Rel, Line: w.Line}
		if !slices.Contains(days, w.Date) {
			days = append(days, w.Date)
		}
	}
	if len(days) > 0 {
		a.afterWriteIndexing(ctx, days, indexNow)
	}
	return out, err
}
