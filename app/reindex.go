package app

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/daybook/daybook/api"
)

// Reindex rebuilds the index from the markdown: the day files and the
// summaries. Without req.Changed the index folder is dropped first, so
// nothing of the old one survives; the index is derived and disposable.
func (a *App) Reindex(ctx context.Context, req api.ReindexRequest) (api.ReindexResponse, error) {
	start := time.Now()
	if !req.Changed {
		if err := a.closeIndex(); err != nil {
			a.Log.Warn("closing the index before a rebuild", "system", "index", "err", err)
		}
		// Open it first so that a busy index is refused before anything is removed.
		x, err := a.openAndSync(ctx, false)
		if err != nil {
			return api.ReindexResponse{}, err
		}
		dir := x.Dir()
		if err := a.closeIndex(); err != nil {
			return api.ReindexResponse{}, err
		}
		if err := os.RemoveAll(dir); err != nil {
			return api.ReindexResponse{}, fmt.Errorf("removing the old index: %w", err)
		}
	}
	x, err := a.openAndSync(ctx, false)
	if err != nil {
		return api.ReindexResponse{}, err
	}
	st, err := x.Sync(ctx, false, a.corpora()...) // on an empty index, a bulk build
	if err != nil {
		return api.ReindexResponse{}, err
	}
	a.idx.mu.Lock()
	a.idx.lastFull = a.Now()
	a.idx.mu.Unlock()
	stats, err := x.Stats()
	if err != nil {
		return api.ReindexResponse{}, err
	}
	resp := api.ReindexResponse{
		Files: st.Files, Indexed: st.Changed, Removed: st.Removed, Documents: int(stats.Docs),
		Vectors: stats.Vectors, Bytes: stats.Bytes, Embedder: stats.Embedder,
		Seconds: time.Since(start).Seconds(),
	}
	return resp, nil
}
