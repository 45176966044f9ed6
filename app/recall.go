package app

import (
	"context"
	"errors"

	"github.com/daybook/daybook/api"
	"github.com/daybook/daybook/date"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/recall"
)

// Recall answers what daybook remembers about a query: the drill through
// the index, or the linear scan of the day files when the index is busy
// (another process holds it) or will not open, with a warning.
func (a *App) Recall(ctx context.Context, req api.RecallRequest) (api.RecallResponse, error) {
	if err := recall.Check(req); err != nil {
		return api.RecallResponse{}, userErr(err)
	}
	if _, err := date.ParseRangeArgs(req.From, req.To, a.Today()); err != nil {
		return api.RecallResponse{}, userErr(err)
	}
	opts := recall.Options{Root: a.Dir, Now: a.Now, Loc: a.Loc(), Log: a.Log, Limit: a.Config.Recall.Limit}
	var s recall.Searcher
	if req.Mode != recall.ModeLinear {
		x, err := a.Index(ctx)
		switch {
		case err == nil:
			s = x
		case errors.Is(err, index.ErrBusy):
			a.Log.Warn("recall is using the linear scan: " + err.Error())
		case ctx.Err() != nil:
			return api.RecallResponse{}, ctx.Err()
		default:
			a.Log.Warn("recall is using the linear scan: the index will not open", "err", err)
		}
	}
	return recall.Recall(ctx, s, req, opts)
}
