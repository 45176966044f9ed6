package app

import (
	"context"

	"github.com/daybook/daybook/api"
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
	// The topics cache counts each day's entries and parses only the files
	// whose size or time changed: parsing all took 450 ms on 5 years.
	ix, err := a.topicIndex(ctx)
	if err != nil {
		return resp, err
	}
	for _, d := range ix.Days() {
		resp.Days++
		if d.Bad {
			resp.Unreadable++
			continue
		}
		resp.Entries += d.Entries
	}
	a.consolidateStatus(ctx, &resp)
	for _, h := range a.statusHooks.list() {
		h(ctx, &resp)
	}
	return resp, nil
}
