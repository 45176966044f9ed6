package app

import (
	"context"

	"github.com/daybook/daybook/api"
	"github.com/daybook/daybook/date"
	"github.com/daybook/daybook/dayfiles"
)

// StatusHook fills in a part's fields of a status answer: the index its
// size, consolidation its summary counts and stale periods, the daemon its
// jobs. A hook that cannot tell leaves its fields at their zero values.
type StatusHook func(ctx context.Context, resp *api.StatusResponse)

// OnStatus registers fn to fill in its part of every full status answer.
func (a *App) OnStatus(fn StatusHook) {
	a.statusHooks.add(fn)
}

// Status says how the data dir stands: how many days and entries it holds,
// and whatever the registered parts add. A brief request reads nothing and
// names only the data dir. Whether a daemon answers is for the socket server
// to say; the App leaves Daemon at its zero value.
func (a *App) Status(ctx context.Context, req api.StatusRequest) (api.StatusResponse, error) {
	resp := api.StatusResponse{DataDir: a.Dir}
	if req.Brief {
		return resp, nil
	}
	files, err := dayfiles.List(a.Dir, date.Range{}, a.Log)
	if err != nil {
		return resp, err
	}
	resp.Days = len(files)
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return resp, err
		}
		day, err := dayfiles.ParseFile(f.Path, f.Date)
		if err != nil {
			resp.Unreadable++
			a.Log.Debug("counting entries", "path", f.Path, "err", err)
			continue
		}
		resp.Entries += len(day.Entries)
	}
	a.consolidateStatus(ctx, &resp)
	for _, h := range a.statusHooks.list() {
		h(ctx, &resp)
	}
	return resp, nil
}
