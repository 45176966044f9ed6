package index

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// ErrUnavailable is matched (errors.Is) by an Embedder's error that means
// "cannot embed now, ask again later": Ollama is down, slow or missing the
// model (ollama.UnavailableError matches it). The index then keeps the
// text side current and lets the documents wait for their vectors: Sync
// and SyncPaths write them to bleve at once, EmbedQuery gives no vector
// (recall ranks by BM25 alone), and FillVectors embeds them once the
// embedder answers. Vectors of two models never mix: the embedder's name
// stays the same through an outage.
//
// If the error has a method RetryAt() time.Time, the index asks the
// embedder again no earlier than that; else after DefaultRetry.
var ErrUnavailable = errors.New("embedder unavailable")

// DefaultRetry is how long the index leaves an unavailable embedder alone
// when its error does not say.
const DefaultRetry = time.Minute

// VectorStatus says whether the vector side keeps up.
type VectorStatus struct {
	Off     bool      // the embedder was unavailable when last asked
	Since   time.Time // when it became unavailable
	RetryAt time.Time // when the index asks it again
	Err     error     // why it is unavailable
	Pending int       // documents waiting for a vector
	Dim     int       // 0: the embedder has not answered once yet
}

// VectorStatus reports the vector side.
func (v *VectorStore) VectorStatus() VectorStatus {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return VectorStatus{Off: v.offErr != nil, Since: v.offSince, RetryAt: v.retryAt, Err: v.offErr,
		Pending: len(v.pending), Dim: v.meta.Dim}
}

// vectorsOff records that the embedder is unavailable; the start of an
// outage is logged once.
func (v *VectorStore) vectorsOff(err error) {
	now := v.now()
	retry := now.Add(DefaultRetry)
	var ra interface{ RetryAt() time.Time }
	if errors.As(err, &ra) && !ra.RetryAt().IsZero() {
		retry = ra.RetryAt()
	}
	v.lockWrite()
	defer v.unlockWrite()
	if v.offErr == nil {
		v.offSince = now
		v.log.Info("embedder unavailable: new documents are searchable by text and wait for their vectors",
			"embedder", v.emb.Name(), "retry_at", retry.Format(time.TimeOnly), "err", err)
	}
	v.offErr, v.retryAt = err, retry
}

// vectorsOn records that the embedder answered.
func (v *VectorStore) vectorsOn() {
	v.lockWrite()
	defer v.unlockWrite()
	if v.offErr != nil {
		v.log.Info("embedder answers again", "embedder", v.emb.Name(), "waiting", len(v.pending))
	}
	v.offErr = nil
}

// waiting reports whether the embedder is not to be asked yet.
func (v *VectorStore) waiting() bool {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.offErr != nil && v.now().Before(v.retryAt)
}

// embedOrWait returns the vectors of docs, or nil (and no error) when the
// embedder is unavailable: the documents then wait. The caller holds writeMu.
func (v *VectorStore) embedOrWait(ctx context.Context, docs []Doc) ([][]float32, error) {
	if len(docs) == 0 || v.waiting() {
		return nil, nil
	}
	texts := make([]string, len(docs))
	for i, d := range docs {
		texts[i] = dayfiles.WithoutAutoTags(d.Text)
	}
	vecs, err := v.embed(ctx, texts)
	switch {
	case errors.Is(err, ErrUnavailable) && ctx.Err() == nil:
		v.vectorsOff(err)
		return nil, nil
	case err != nil:
		return nil, err
	}
	v.vectorsOn()
	return vecs, nil
}

// adoptDim sets the dimension of an index made while the embedder was
// unavailable, from its first answer. The caller holds writeMu.
func (v *VectorStore) adoptDim(dim int) error {
	v.lockWrite()
	defer v.unlockWrite()
	if err := v.openForWrites(); err != nil {
		return err
	}
	if v.meta.Dim != 0 {
		return nil
	}
	if v.vec.len() > 0 {
		return fmt.Errorf("index %s has vectors but no dimension", v.dir)
	}
	m := v.meta
	m.Dim = dim
	nv := newVectors(dim)
	if err := writeVectors(v.dir, m.Embedder, nv); err != nil {
		return err
	}
	if err := writeMeta(v.dir, m); err != nil {
		return err
	}
	v.vec, v.meta = nv, m
	v.log.Info("embedder answers: vectors can be made now", "embedder", m.Embedder, "dim", dim)
	return nil
}

// addPending and dropPending keep the documents without vectors; the
// caller holds lockWrite.
func (v *VectorStore) addPending(id string, m vecMeta) {
	if old, ok := v.pending[id]; ok {
		v.ungroupPending(old)
	}
	v.pending[id] = m
	k := groupKey{m.level, m.parent}
	if v.pendingGroups[k] == 0 || m.level != date.LevelEntry {
		v.pendingShape++ // as vectors.shape
	}
	v.pendingGroups[k]++
}

func (v *VectorStore) dropPending(id string) {
	if old, ok := v.pending[id]; ok {
		delete(v.pending, id)
		v.ungroupPending(old)
		if old.level != date.LevelEntry {
			v.pendingShape++
		}
	}
}

func (v *VectorStore) ungroupPending(m vecMeta) {
	k := groupKey{m.level, m.parent}
	if v.pendingGroups[k]--; v.pendingGroups[k] <= 0 {
		delete(v.pendingGroups, k)
		v.pendingShape++
	}
}

// FillStats reports a FillVectors.
type FillStats struct {
	Filled  int       // vectors made
	Left    int       // documents still waiting
	RetryAt time.Time // the embedder is unavailable until then; zero when it answered
}

// FillVectors embeds the documents that wait for a vector: those indexed
// while the embedder was unavailable, in this run or (found by a scan of
// bleve on the first call) an earlier one. It returns an error matching
// ErrUnavailable, with FillStats.RetryAt, when the embedder is still
// unavailable (or went away again half-way: what was made is kept).
func (x *Index) FillVectors(ctx context.Context) (FillStats, error) {
	x.writeMu.Lock()
	defer x.writeMu.Unlock()
	var st FillStats
	left := func() int { x.VectorStore.mu.RLock(); defer x.VectorStore.mu.RUnlock(); return len(x.pending) }
	if x.waiting() {
		vs := x.VectorStatus()
		st.Left, st.RetryAt = vs.Pending, vs.RetryAt
		return st, fmt.Errorf("filling vectors: waiting until %s: %w", vs.RetryAt.Format(time.TimeOnly), vs.Err)
	}
	if x.scan {
		if err := x.scanPending(ctx); err != nil {
			return st, err
		}
	}
	x.VectorStore.mu.RLock()
	ids := make([]string, 0, len(x.pending))
	for id := range x.pending {
		ids = append(ids, id)
	}
	x.VectorStore.mu.RUnlock()
	slices.SortFunc(ids, func(a, b string) int { return strings.Compare(b, a) }) // newest first
	start := time.Now()
	for len(ids) > 0 {
		chunk := ids[:min(embedChunk, len(ids))]
		ids = ids[len(chunk):]
		n, err := x.fillChunk(ctx, chunk)
		st.Filled += n
		if err != nil {
			st.Left = left()
			if errors.Is(err, ErrUnavailable) {
				st.RetryAt = x.VectorStatus().RetryAt
			}
			return st, fmt.Errorf("filling vectors: %w", err)
		}
	}
	st.Left = left()
	if st.Filled > 0 {
		x.log.Info("vectors filled in", "embedder", x.emb.Name(), "vectors", st.Filled, "left", st.Left,
			"took", time.Since(start).Round(time.Millisecond).String())
	}
	return st, nil
}

// fillChunk embeds one chunk of waiting documents, read back from bleve.
func (x *Index) fillChunk(ctx context.Context, ids []string) (int, error) {
	hits, err := x.Get(ctx, ids)
	if err != nil {
		return 0, err
	}
	var texts []string
	var have []string
	x.VectorStore.lockWrite()
	for _, id := range ids {
		if h, ok := hits[id]; ok {
			texts = append(texts, dayfiles.WithoutAutoTags(h.Text))
			have = append(have, id)
		} else {
			x.dropPending(id) // gone from bleve since
		}
	}
	x.VectorStore.unlockWrite()
	if len(have) == 0 {
		return 0, nil
	}
	vecs, err := x.embed(ctx, texts)
	if errors.Is(err, ErrUnavailable) && ctx.Err() == nil {
		x.vectorsOff(err)
	}
	if err != nil {
		return 0, err
	}
	x.vectorsOn()
	x.VectorStore.lockWrite()
	defer x.VectorStore.unlockWrite()
	if err := x.VectorStore.openForWrites(); err != nil {
		return 0, err
	}
	n := 0
	for i, id := range have {
		m, ok := x.pending[id]
		if !ok {
			continue
		}
		x.dropPending(id)
		x.vec.put(id, m, vecs[i])
		x.vlog.put(x.vec, id)
		n++
	}
	// The same proportional folding of the log into the image as writes use.
	return n, x.flushLog()
}

// scanPending lists the documents in bleve that have no vector: those
// indexed while the embedder was unavailable in an earlier run. The caller
// holds writeMu.
func (x *Index) scanPending(ctx context.Context) error {
	const page = 5000
	after := ""
	found := 0
	for {
		req := bleve.NewSearchRequestOptions(bleve.NewMatchAllQuery(), page, 0, false)
		req.Fields = []string{"m"}
		req.SortBy([]string{"_id"})
		if after != "" {
			req.SearchAfter = []string{after}
		}
		res, err := x.bl.SearchInContext(ctx, req)
		if err != nil {
			return fmt.Errorf("looking for documents without vectors: %w", err)
		}
		x.VectorStore.lockWrite()
		for _, h := range res.Hits {
			if x.vec.has(h.ID) {
				continue
			}
			if _, ok := x.pending[h.ID]; ok {
				continue
			}
			if m, ok := metaOfHit(h); ok {
				x.addPending(h.ID, m)
				found++
			}
		}
		x.VectorStore.unlockWrite()
		if len(res.Hits) < page {
			break
		}
		after = res.Hits[len(res.Hits)-1].ID
	}
	x.scan = false
	if found > 0 {
		x.log.Info("documents without vectors from an earlier run", "documents", found)
	}
	return nil
}

// metaOfHit rebuilds a document's vector metadata from its stored level
// and period.
func metaOfHit(h *search.DocumentMatch) (vecMeta, bool) {
	hit, _ := hitOf(h)
	level, period := hit.Level, hit.Period
	r, ok := periodRange(period)
	if !ok {
		return vecMeta{}, false
	}
	d := Doc{ID: h.ID, Level: level, Period: period, Start: r.From, End: r.To}
	if d.Validate() != nil {
		return vecMeta{}, false
	}
	return vecMeta{level: level, parent: d.Parent(), start: dayNum(r.From), end: dayNum(r.To)}, true
}
