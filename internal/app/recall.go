package app

import (
	"context"
	"errors"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/recall"
)

// Reader answers from the index: a recall, and the context an agent is
// handed (which recalls its query). Each result of a plain recall counts
// as a use of its memory, for the context's utility score.
type Reader struct {
	*env
	index *Indexer
	use   *usagePart    // retrieval counts: recorded by Recall, read by Context
	files *contextFiles // the context's listings and parsed files, kept between calls (context_files.go)
}

// Recall answers what daybook remembers about a query: the drill through
// the index, or the linear scan of the day files when the index is busy
// (another process holds it) or will not open, with a warning.
// Each result of a plain recall counts as a use of its memory (the utility
// score of the context); the methods "daybook eval" compares do not.
func (r *Reader) Recall(ctx context.Context, req daybook.RecallRequest) (daybook.RecallResponse, error) {
	resp, err := r.recall(ctx, req)
	if err == nil && (req.Mode == "" || req.Mode == recall.ModeDrill) {
		ids := make([]string, len(resp.Results))
		for i, res := range resp.Results {
			ids[i] = res.ID
		}
		r.use.record(ids)
	}
	return resp, err
}

// recall is Recall without counting uses: the context's own recall must
// not make what it shows look more used the next time.
func (r *Reader) recall(ctx context.Context, req daybook.RecallRequest) (daybook.RecallResponse, error) {
	if err := recall.Check(req); err != nil {
		return daybook.RecallResponse{}, userErr(err)
	}
	if _, err := date.ParseRangeArgs(req.From, req.To, r.Today()); err != nil {
		return daybook.RecallResponse{}, userErr(err)
	}
	opts := recall.Options{Root: r.dir, Now: r.now, Loc: r.Loc(), Log: r.log, Limit: r.cfg.Recall.Limit}
	var s recall.Searcher
	var vs vectorStatuser
	if req.Mode != recall.ModeLinear {
		x, err := r.index.Index(ctx)
		switch {
		case err == nil:
			s, vs = x, x
		case errors.Is(err, index.ErrBusy):
			r.log.Warn("recall is using the linear scan: " + err.Error())
		case ctx.Err() != nil:
			return daybook.RecallResponse{}, ctx.Err()
		default:
			r.log.Warn("recall is using the linear scan: the index will not open", "err", err)
		}
	}
	resp, err := recall.Recall(ctx, s, req, opts)
	if vs != nil && req.Explain && err == nil {
		if st := vs.VectorStatus(); st.Off || st.Dim == 0 {
			resp.Method.VectorsOff = true
		}
	}
	return resp, err
}

// vectorStatuser is what a recall's explanation reads of the index's
// vector side (index.VectorStore): whether vectors took part.
type vectorStatuser interface {
	VectorStatus() index.VectorStatus
}
