package index

import (
	"context"
	"fmt"
	"slices"

	"github.com/blevesearch/bleve/v2"

	"github.com/daybook/daybook/dayfiles/date"
)

// The drill ranks many candidates and returns few: Rank and RankEach rank
// without reading anything stored (a hit carries its id, level, period and
// BM25), Heads names vector hits the same way, and Load reads the stored
// fields and matched spans of the few that are returned. Reading stored
// fields means decompressing each document; for the candidates of every
// level it cost more than the ranking.

// Rank ranks q's level by BM25 inside its parents and range, best first,
// as Search does, but reads nothing stored: each hit has only its ID,
// Level, Period and BM25.
func (t *TextIndex) Rank(ctx context.Context, q Query) ([]Hit, error) {
	if q.K <= 0 {
		return nil, nil
	}
	hits, _, err := t.rank(ctx, q, q.K)
	return hits, err
}

// RankEach ranks q's level inside each of q.Parents apart and returns the
// best q.K of each parent, as one Rank per parent would, but with one
// search when it can: a year has at most 12 monthly summaries and a month
// at most 31 daily ones, so one search for every child of all the parents
// holds each parent's whole ranking, which is then split by parent. Scores
// do not depend on the filter (its clauses weigh nothing), so they are those
// of the search per parent; ties keep the index's order, as there. Entries
// (no bound per day) and a parent holding more than its bound are ranked one
// parent at a time.
func (t *TextIndex) RankEach(ctx context.Context, q Query) (map[string][]Hit, error) {
	out := make(map[string][]Hit, len(q.Parents))
	if q.K <= 0 || len(q.Parents) == 0 {
		return out, nil
	}
	if per := q.Level.MaxPerParent(); per > 0 && len(q.Parents) > 1 {
		hits, total, err := t.rank(ctx, q, per*len(q.Parents))
		if err != nil {
			return nil, err
		}
		if total <= uint64(len(hits)) {
			for _, h := range hits {
				p := Doc{Level: h.Level, Period: h.Period}.Parent()
				if len(out[p]) < q.K {
					out[p] = append(out[p], h)
				}
			}
			return out, nil
		}
	}
	for _, p := range q.Parents {
		one := q
		one.Parents = []string{p}
		hits, _, err := t.rank(ctx, one, q.K)
		if err != nil {
			return nil, err
		}
		if len(hits) > 0 {
			out[p] = hits
		}
	}
	return out, nil
}

// rank runs q's search for size hits and names them; it returns them with
// the total that matched.
func (t *TextIndex) rank(ctx context.Context, q Query, size int) ([]Hit, uint64, error) {
	req := bleve.NewSearchRequestOptions(t.searchQuery(q), size, 0, false)
	if q.Level == date.LevelEntry {
		req.Fields = metaField // whether the loop wrote it (Hit.Captured)
	}
	res, err := t.bl.SearchInContext(ctx, req)
	if err != nil {
		return nil, 0, fmt.Errorf("searching index: %w", err)
	}
	if len(res.Hits) == 0 {
		return nil, res.Total, nil
	}
	ids := make([]string, len(res.Hits))
	for i, h := range res.Hits {
		ids[i] = h.ID
	}
	heads, err := t.Heads(ctx, q.Level, ids)
	if err != nil {
		return nil, 0, err
	}
	out := make([]Hit, 0, len(res.Hits))
	for _, h := range res.Hits {
		hit, ok := heads[h.ID]
		if !ok {
			continue // deleted between the two reads
		}
		hit.BM25 = h.Score
		if m, ok := h.Fields["m"].(string); ok {
			if loc, ok := unpackLocated(m); ok {
				hit.Captured = loc.captured
			} else {
				var meta Hit
				unpackMeta(&meta, m)
				hit.Captured = meta.Captured
			}
		}
		out = append(out, hit)
	}
	return out, res.Total, nil
}

// Heads returns the level and period of ids, documents of level: from the
// ids themselves where they tell ("day:2026-02-13", an entry's
// "2026-02-13T09:30-…", a note's "2026-02-13:L12"), else read from the
// index, where ids it does not hold are left out.
func (t *TextIndex) Heads(ctx context.Context, level date.Level, ids []string) (map[string]Hit, error) {
	out := make(map[string]Hit, len(ids))
	var unknown []string
	for _, id := range ids {
		if p, ok := PeriodOfID(level, id); ok {
			out[id] = Hit{ID: id, Level: level, Period: p}
		} else {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) == 0 {
		return out, nil
	}
	docs, err := t.Get(ctx, unknown)
	if err != nil {
		return nil, err
	}
	for id, d := range docs {
		out[id] = Hit{ID: id, Level: d.Level, Period: d.Period}
	}
	return out, nil
}

// PeriodOfID returns the period of a document of level from its id, when
// the id has the shape the app gives that level: a summary's is its level
// and period ("month:2026-02"), an entry's or a note's starts with its day
// and a 'T' or a ':' ("2026-02-13T09:30-…", "2026-02-13:L12"). ok is false
// for any other id: the caller reads the period from the index instead.
func PeriodOfID(level date.Level, id string) (string, bool) {
	switch level {
	case date.LevelYear, date.LevelMonth, date.LevelDay:
		n := level.PeriodLen()
		if len(id) != len(level)+1+n || id[:len(level)] != string(level) || id[len(level)] != ':' {
			return "", false
		}
		p := id[len(level)+1:]
		if _, ok := periodRange(p); !ok || p != canonical(p) {
			return "", false
		}
		return p, true
	case date.LevelEntry:
		if len(id) < 11 || id[10] != 'T' && id[10] != ':' {
			return "", false
		}
		d, err := date.Parse(id[:10])
		if err != nil || d.String() != id[:10] {
			return "", false
		}
		return id[:10], true
	}
	return "", false
}

// canonical returns the period p as the index writes it, "" when it does
// not parse.
func canonical(p string) string {
	r, ok := periodRange(p)
	switch {
	case !ok:
		return ""
	case len(p) == 4:
		return yearString(r.From.Year)
	case len(p) == 7:
		return r.From.MonthOf().String()
	}
	return r.From.String()
}

// Load returns the stored documents of ids with, for those in spans, the
// spans of text's terms in their text (as Search gives them); ids not in
// the index are left out. One read of the index.
func (t *TextIndex) Load(ctx context.Context, text string, spans, plain []string) (map[string]Hit, error) {
	out, err := t.Get(ctx, append(slices.Clip(spans), plain...))
	if err != nil || len(spans) == 0 {
		return out, err
	}
	sp := t.newSpanner(text)
	for _, id := range spans {
		if h, ok := out[id]; ok {
			h.Spans = sp.spans(h.Text)
			out[id] = h
		}
	}
	return out, nil
}

// metaField is the stored field an entry search reads of each hit: its
// meta, which says whether the loop wrote it.
var metaField = []string{"m"}
