package index

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/daybook/daybook/dayfiles/date"
)

// Query is one search of one level, inside one parent period and a range.
type Query struct {
	Text    string
	Level   date.Level // year, month, day, entry
	Parents []string   // restrict to the children of these periods; none for all
	Range   date.Range // only documents that overlap it; open for all
	K       int        // how many hits
}

// Span is a byte range of a hit's text that matched the query.
type Span struct{ Start, End int }

// Hit is a document found by a search, with its stored fields.
type Hit struct {
	ID     string
	Level  date.Level
	Period string
	Kind   string
	Tags   []string
	Text   string
	Path   string
	Line   int
	BM25   float64 // 0 when found only by vector
	Spans  []Span  // matched terms in Text, in order
	// Captured: a day file's entry the loop wrote (a captured agent turn,
	// a proxied chat: dayfiles.Captured), known without reading it back.
	Captured bool
}

var storedFields = []string{"m", "s"}

// filter returns the query that restricts q to its level, parent and range.
// Entries are the documents of no summary level (see notSummary).
func filter(q Query) query.Query {
	parts := filterParts(q)
	if q.Level == date.LevelEntry {
		bq := bleve.NewBooleanQuery()
		if len(parts) > 1 {
			bq.AddMust(parts[1:]...)
		} else {
			bq.AddMust(bleve.NewMatchAllQuery())
		}
		bq.AddMustNot(notSummary())
		return bq
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return bleve.NewConjunctionQuery(parts...)
}

// notSummary is the must-not clause that makes entries of a query: the
// documents of a summary level. Entries are most of the index, and the
// located ones (located.go) have no level term.
func notSummary() query.Query {
	var summaries []query.Query
	for _, l := range []date.Level{date.LevelYear, date.LevelMonth, date.LevelDay} {
		t := bleve.NewTermQuery(string(l))
		t.SetField("level")
		summaries = append(summaries, t)
	}
	return unscored(bleve.NewDisjunctionQuery(summaries...))
}

// filterParts returns the clauses of q's filter: its level, its parents, its
// range (left out when the parents lie inside it). The month and day
// summaries of a few parents are named by their ids instead of the level
// and parent terms (see childIDs).
func filterParts(q Query) []query.Query {
	var parts []query.Query
	if ids := childIDs(q.Level, q.Parents); ids != nil {
		parts = append(parts, bleve.NewDocIDQuery(ids))
	} else {
		lv := bleve.NewTermQuery(string(q.Level))
		lv.SetField("level")
		parts = append(parts, lv)
		if f := ParentField(q.Level); f != "" && len(q.Parents) > 0 {
			var ps []query.Query
			for _, parent := range q.Parents {
				p := bleve.NewTermQuery(parent)
				p.SetField(f)
				ps = append(ps, p)
			}
			if len(ps) == 1 {
				parts = append(parts, ps[0])
			} else {
				parts = append(parts, bleve.NewDisjunctionQuery(ps...))
			}
		}
	}
	if f := ParentField(q.Level); f == "" || !covers(q.Range, q.Parents) {
		if rf := rangeFilter(q.Level, q.Range); rf != nil {
			parts = append(parts, rf)
		}
	}
	return parts
}

// maxChildIDs is the most ids childIDs names: 12 years' months, a year's
// days.
const maxChildIDs = 372

// childIDs returns the ids of every month summary the years parents can
// hold, or of every day summary of the months parents, nil for another
// level, no parents, a parent that is not a canonical period, or more than
// maxChildIDs ids. A summary's id is its level and period (Validate sees
// to it), so the ids name exactly the children. As a filter they are far
// cheaper than the parents' terms: a year's term is on every entry of that
// year (some 46,000 documents of a generated year), while an id is on one
// document (figures in BENCHMARKS.md, "Figures behind the code").
func childIDs(level date.Level, parents []string) []string {
	per := level.MaxPerParent()
	if per == 0 || len(parents) == 0 || len(parents)*per > maxChildIDs {
		return nil
	}
	ids := make([]string, 0, len(parents)*per)
	for _, p := range parents {
		r, ok := periodRange(p)
		if !ok || canonical(p) != p || len(p) != level.Up().PeriodLen() {
			return nil
		}
		if level == date.LevelMonth {
			for m := range 12 {
				ids = append(ids, string(date.LevelMonth)+":"+date.Month{Year: r.From.Year, Month: time.Month(m + 1)}.String())
			}
			continue
		}
		for d := r.From; !r.To.Before(d); d = d.AddDays(1) {
			ids = append(ids, string(date.LevelDay)+":"+d.String())
		}
	}
	return ids
}

// searchQuery is the text query of q in a conjunction with its filter. The
// filter's clauses weigh nothing (see unscored): the score is the text
// query's alone, as with bleve's boolean filter; but a conjunction leaps
// along its rarest clause (the level term of a summary level, a day's
// entries) where a boolean filter walks every document that has a query
// term and tests each one. The entry level is most of the index: advancing
// along its level term costs more than the search, so entries are "no
// summary level" instead (a must-not of the few summaries).
func (t *TextIndex) searchQuery(q Query) query.Query {
	m := t.textQuery(q.Text)
	parts := filterParts(q)
	if q.Level == date.LevelEntry {
		parts = parts[1:]
	}
	must := []query.Query{m}
	for _, p := range parts {
		must = append(must, unscored(p))
	}
	bq := bleve.NewBooleanQuery()
	bq.AddMust(must...)
	if q.Level == date.LevelEntry {
		bq.AddMustNot(notSummary())
	}
	return bq
}

// unscored returns q as a clause that only filters: it adds 0 to every
// score and 0 to the query norm, so the scores are those of the query
// without it. It is searched without scores, which lets bleve merge a
// disjunction of terms (the 45 days of the drill's entry step, the terms
// of a range) into one list of documents read once, where a scored
// disjunction keeps a heap of one cursor per term; every answer is byte
// for byte the same (figures in BENCHMARKS.md, "Figures behind the code").
func unscored(q query.Query) query.Query { return filterQuery{q} }

// filterQuery is a query searched without scores, term vectors or
// explanations, whose searcher weighs nothing.
type filterQuery struct{ q query.Query }

func (f filterQuery) Searcher(ctx context.Context, r bleveindex.IndexReader, m mapping.IndexMapping, options search.SearcherOptions) (search.Searcher, error) {
	options.Score = "none"
	options.IncludeTermVectors = false
	options.Explain = false
	s, err := f.q.Searcher(ctx, r, m, options)
	if err != nil {
		return nil, err
	}
	return weightless{s}, nil
}

// weightless is a searcher that takes no part in the query norm.
type weightless struct{ search.Searcher }

func (weightless) Weight() float64      { return 0 }
func (weightless) SetQueryNorm(float64) {}

// Optimize passes bleve's optimisations through to the wrapped searcher:
// a one-word query and a one-term filter AND their postings up front.
func (w weightless) Optimize(kind string, octx bleveindex.OptimizableContext) (bleveindex.OptimizableContext, error) {
	if o, ok := w.Searcher.(bleveindex.Optimizable); ok {
		return o.Optimize(kind, octx)
	}
	return nil, nil
}

// Search ranks q's level by BM25 inside its parent and range, best first.
// Entries are ranked without reading anything, then the stored fields of
// the hits returned are read, and the spans of the query's terms found in
// their text (see spanner).
func (t *TextIndex) Search(ctx context.Context, q Query) ([]Hit, error) {
	if q.K <= 0 {
		return nil, nil
	}
	req := bleve.NewSearchRequestOptions(t.searchQuery(q), q.K, 0, false)
	if q.Level != date.LevelEntry {
		// A few summaries per parent: one read is cheaper than two.
		req.Fields = storedFields
	}
	res, err := t.bl.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("searching index: %w", err)
	}
	if len(res.Hits) == 0 {
		return nil, nil
	}
	sp := t.newSpanner(q.Text)
	if q.Level != date.LevelEntry {
		out := make([]Hit, 0, len(res.Hits))
		for _, h := range res.Hits {
			hit, loc := hitOf(h)
			if loc != nil {
				continue // summaries are not located
			}
			hit.BM25 = h.Score
			hit.Spans = sp.spans(hit.Text)
			out = append(out, hit)
		}
		return out, nil
	}
	ids := make([]string, len(res.Hits))
	for i, h := range res.Hits {
		ids[i] = h.ID
	}
	docs, err := t.Get(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("reading search hits: %w", err)
	}
	out := make([]Hit, 0, len(res.Hits))
	for _, h := range res.Hits {
		hit, ok := docs[h.ID]
		if !ok {
			continue // deleted between the two reads
		}
		hit.BM25 = h.Score
		hit.Spans = sp.spans(hit.Text)
		out = append(out, hit)
	}
	return out, nil
}

// Nearest ranks q's level by cosine similarity to vec inside its parent and
// range, best first.
func (v *VectorStore) Nearest(q Query, vec []float32) []VecHit {
	v.mu.RLock()
	defer v.mu.RUnlock()
	vs := v.vec
	out := vs.nearest(Normalize(vec), q.Level, q.Parents, q.Range, q.K)
	runtime.KeepAlive(vs) // its codes may be mapped: see vecmap.go
	return out
}

// EmbedQuery returns the vector of a query text. While the embedder is
// unavailable it returns no vector and no error: the search goes on by
// text alone (VectorStatus says why).
func (v *VectorStore) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	v.mu.RLock()
	dim := v.meta.Dim
	v.mu.RUnlock()
	if dim == 0 || v.waiting() {
		return nil, nil
	}
	vs, err := v.emb.Embed(ctx, []string{text})
	if errors.Is(err, ErrUnavailable) && ctx.Err() == nil {
		v.vectorsOff(err)
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("embedding query with %s: %w", v.emb.Name(), err)
	}
	if len(vs) != 1 {
		return nil, fmt.Errorf("embedding query with %s: %d vectors for one text", v.emb.Name(), len(vs))
	}
	return vs[0], nil
}

// Get returns the documents of ids, with their text: stored, or read back
// from their day files (located.go); ids not in the index, and located
// documents no longer in their files, are left out.
func (t *TextIndex) Get(ctx context.Context, ids []string) (map[string]Hit, error) {
	out := map[string]Hit{}
	if len(ids) == 0 {
		return out, nil
	}
	req := bleve.NewSearchRequestOptions(bleve.NewDocIDQuery(ids), len(ids), 0, false)
	req.Fields = storedFields
	res, err := t.bl.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("reading documents: %w", err)
	}
	var locs map[string]locator
	for _, h := range res.Hits {
		hit, loc := hitOf(h)
		out[h.ID] = hit
		if loc != nil {
			if locs == nil {
				locs = map[string]locator{}
			}
			locs[h.ID] = *loc
		}
	}
	if locs != nil {
		t.readBack(out, locs)
	}
	return out, nil
}

// Count returns how many documents of a level overlap r. Every recall
// counts before it drills, mostly the same few (level, range) pairs, and
// a count changes only with a write: counts are kept for the generation of
// the contents they were taken at (see countCache).
func (t *TextIndex) Count(ctx context.Context, level date.Level, r date.Range) (uint64, error) {
	t.mu.RLock()
	defer t.mu.RUnlock() // a write (lockWrite) waits: the count is of this generation
	key := countKey{level, r}
	if n, ok := t.counts.get(t.gen, key); ok {
		return n, nil
	}
	req := bleve.NewSearchRequestOptions(filter(Query{Level: level, Range: r}), 0, 0, false)
	res, err := t.bl.SearchInContext(ctx, req)
	if err != nil {
		return 0, fmt.Errorf("counting %s documents: %w", level, err)
	}
	t.counts.set(t.gen, key, res.Total)
	return res.Total, nil
}

// hitOf returns the hit of a search result with its stored fields, and
// its locator when it is located (its text is not read yet).
func hitOf(h *search.DocumentMatch) (Hit, *locator) {
	m, _ := h.Fields["m"].(string)
	text, _ := h.Fields["s"].(string)
	return hitOfFields(h.ID, m, text)
}

// periodRange returns the days of 2026, 2026-02 or 2026-02-13.
func periodRange(p string) (date.Range, bool) {
	switch len(p) {
	case 4:
		y, err := strconv.Atoi(p)
		return date.YearRange(y), err == nil
	case 7:
		m, err := date.ParseMonth(p)
		return m.Range(), err == nil
	case 10:
		d, err := date.Parse(p)
		return date.Range{From: d, To: d}, err == nil
	}
	return date.Range{}, false
}
