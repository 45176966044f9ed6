package app

import (
	"context"
	"slices"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/dayfiles/entrytext"
)

// RememberTurns appends the turns of a chat through the memory proxy, each
// as Remember would (its own time, kind and tags), in one write per day
// file (see rememberAll): the entries are in their day file, synced, when
// it returns, and in the context's kept days; their indexing waits up to
// indexBatchDelay, to be done in one batch with the other turns written
// meanwhile. Until then, recall finds them in the day files' recent
// entries of a context, not in the index. Close indexes what still waits.
//
// A text over entrytext.MaxTurnText is kept whole in a rest file beside the
// day, and its entry holds its start and the link (rememberAll).
func (wr *Writer) RememberTurns(ctx context.Context, reqs []daybook.RememberRequest) ([]daybook.RememberResponse, error) {
	return wr.rememberAll(ctx, reqs, false, false)
}

// ReplayTurns is RememberTurns for turns kept in the spool (internal/spool):
// the same write and the same one index batch, except that an entry its
// day file holds already is not written again, so that a replay a crash
// cut short (written, not yet taken out of the spool) writes nothing twice.
func (wr *Writer) ReplayTurns(ctx context.Context, reqs []daybook.RememberRequest) ([]daybook.RememberResponse, error) {
	return wr.rememberAll(ctx, reqs, false, true)
}

// rememberAll appends several entries in one write per day file, each as
// Remember would (its own time, kind and tags): the memory proxy writes a
// user's turn and the reply together (RememberTurns). Every entry is
// checked before any is written; on an error, those of the days written
// before it are kept, and the responses say which (an empty ID: not
// written). The days are indexed at once (indexNow) or a moment later.
//
// A text over entrytext.MaxTurnText is kept whole in a rest file beside the
// day (dayfiles.WriteRest), and the entry holds its start and the link.
// With dedup, an entry its day file holds already (same time, text and
// tags) is not written again: a replay of the spool that a crash cut
// short writes each entry once.
func (wr *Writer) rememberAll(ctx context.Context, reqs []daybook.RememberRequest, indexNow, dedup bool) ([]daybook.RememberResponse, error) {
	entries := make([]dayfiles.NewEntry, len(reqs))
	for i, req := range reqs {
		e, err := wr.turnEntry(req)
		if err != nil {
			return nil, err
		}
		entries[i] = e
	}
	ensurePrivateDir(wr.dir, wr.log)
	wr.zone.pin()
	var ours map[string]int
	if dedup {
		ours = map[string]int{}
	}
	ws, err := wr.keep.Append(entries, ours)
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
		wr.changes.afterWriteIndexing(ctx, days, indexNow)
	}
	return out, err
}

// turnEntry is req as an entry, its text over entrytext.MaxTurnText kept
// whole in a rest file and the entry holding its start and the link.
func (wr *Writer) turnEntry(req daybook.RememberRequest) (dayfiles.NewEntry, error) {
	if len(req.Text) <= entrytext.MaxTurnText {
		return wr.newEntry(req.Text, req.Kind, req.Tags, req.At)
	}
	whole := req.Text
	head, _ := entrytext.CutText(whole, entrytext.MaxTurnText)
	e, err := wr.newEntry(head, req.Kind, req.Tags, req.At) // checks all but the text's length, and dates it
	if err != nil {
		return e, err
	}
	if entrytext.CleanText(whole) != whole {
		return e, userErrf("entry text holds a NUL byte or bytes that are not UTF-8")
	}
	rel, err := dayfiles.WriteRest(wr.dir, date.Of(e.At.In(wr.Loc())), whole)
	if err != nil {
		return e, err
	}
	e.Text = dayfiles.WithRest(whole, entrytext.MaxTurnText, rel)
	if err := e.Validate(); err != nil {
		return e, userErr(err)
	}
	return e, nil
}
