package app

import (
	"context"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/index"
)

// Reindex rebuilds the index from the markdown: the day files and the
// summaries. Without req.Changed the index folder is dropped first, so
// nothing of the old one survives; the index is derived and disposable.
func (p *Indexer) Reindex(ctx context.Context, req daybook.ReindexRequest) (daybook.ReindexResponse, error) {
	start := time.Now()
	var x *index.Index
	var err error
	if req.Changed {
		x, err = p.get(ctx, false)
	} else {
		x, err = p.empty(ctx)
	}
	if err != nil {
		p.build(ctx, nil, !req.Changed) // ends what empty began
		return daybook.ReindexResponse{}, err
	}
	// On an empty index, a bulk build; what is written meanwhile is
	// indexed when it ends.
	st, err := p.build(ctx, x, !req.Changed)
	if err != nil {
		return daybook.ReindexResponse{}, err
	}
	p.caughtUp()
	stats, err := x.Stats()
	if err != nil {
		return daybook.ReindexResponse{}, err
	}
	resp := daybook.ReindexResponse{
		Files: st.Files, Indexed: st.Changed, Removed: st.Removed, Documents: int(stats.Docs),
		Vectors: stats.Vectors, Bytes: stats.Bytes, Embedder: stats.Embedder,
		Seconds: time.Since(start).Seconds(),
	}
	return resp, nil
}
