package recall

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
)

// Searcher is what recall needs of the index: its text side and its
// vector side (*index.Index is both, as a composition of the two).
type Searcher interface {
	TextSearcher
	VectorSearcher
}

// TextSearcher is what recall needs of the text index (index.TextIndex).
//
// The drill ranks without reading stored fields: Rank and RankEach give a
// hit's id, level, period and BM25, Heads the level and period of vector
// hits, and Load reads text, path, line and spans of the results returned.
type TextSearcher interface {
	Rank(ctx context.Context, q index.Query) ([]index.Hit, error)
	RankEach(ctx context.Context, q index.Query) (map[string][]index.Hit, error)
	Heads(ctx context.Context, level date.Level, ids []string) (map[string]index.Hit, error)
	Load(ctx context.Context, text string, spans, plain []string) (map[string]index.Hit, error)
	Count(ctx context.Context, level date.Level, r date.Range) (uint64, error)
}

// VectorSearcher is what recall needs of the vector store
// (index.VectorStore): the query's vector, the nearest documents to it, and
// the parents with no summary of their own, which the drill searches beside
// those it chose.
type VectorSearcher interface {
	Nearest(q index.Query, vec []float32) []index.VecHit
	EmbedQuery(ctx context.Context, text string) ([]float32, error)
	Orphans(level date.Level, r date.Range) []string
}

// The index's parts are what recall declares.
var (
	_ TextSearcher   = (*index.TextIndex)(nil)
	_ VectorSearcher = (*index.VectorStore)(nil)
)

// keep returns how many of level the drill keeps inside each parent.
func keep(level date.Level, limit int) int {
	switch level {
	case date.LevelYear:
		return topYears
	case date.LevelMonth:
		return topMonths
	case date.LevelDay:
		return topDays
	case date.LevelEntry:
		return limit
	default:
		panic(fmt.Sprintf("recall: the drill has no level %q", string(level)))
	}
}

var levels = []date.Level{date.LevelYear, date.LevelMonth, date.LevelDay, date.LevelEntry}

// group is one search of a drill step: the children of one parent, or of
// the orphan parents together.
type group struct {
	parents []string
	label   string // for the explain path
	noVec   bool   // BM25 only
	each    bool   // one of the level's parents: ranked with the others by one RankEach
	started bool   // searched by the drill itself, not by searchGroups
	k       int    // how many to search for, when not the level's number
	hits    []index.Hit
	vec     []index.VecHit
}

// drill runs the top-down drill from level start. It returns every chosen
// candidate of every level, the path of periods it went through, and
// whether its BM25 search of the whole range's entries returned every entry
// that has a word of the query (some, but fewer than it asked for).
func drill(ctx context.Context, s Searcher, text string, vec []float32, r date.Range, start date.Level, limit int, method string, without []date.Level) ([]scored, []string, bool, error) {
	// The best entries of the whole range by BM25 compete at the entry
	// level beside those the drill reaches (summaries leave out rare
	// words). That search does not depend on the levels above, so it runs
	// beside them from the start: the levels above leave a core idle.
	star := &group{label: "*", noVec: true, started: true}
	starN := max(starEntriesPerResult*limit, starEntriesMin)
	var starErr error
	starDone := make(chan struct{})
	go func() {
		defer close(starDone)
		star.hits, starErr = rankEntries(ctx, s, index.Query{Text: text, Level: date.LevelEntry, Range: r, K: starN})
	}()
	defer func() { <-starDone }() // never leave it running past the drill

	var all []scored
	exhausted := false
	var path []string
	var parents []string // chosen at the level above
	for _, level := range levels[slices.Index(levels, start):] {
		if slices.Contains(without, level) {
			continue // switched off: its parents stay those of the level above
		}
		k := keep(level, limit)
		var groups []*group
		if level == start {
			// The first level is searched whole (inside the range): wider.
			groups = append(groups, &group{label: "*"})
			if level != date.LevelYear {
				k *= firstLevelWiden
			}
		} else {
			if level == date.LevelEntry {
				// One search inside all the chosen days: the entries are cut
				// to the limit together at the end anyway.
				if len(parents) > 0 {
					groups = append(groups, &group{parents: slices.Clone(parents), label: "days"})
				}
			} else {
				for _, p := range parents {
					groups = append(groups, &group{parents: []string{p}, label: p, each: true})
				}
			}
			if orphans := s.Orphans(level, r); len(orphans) > 0 {
				orphans = orphans[:min(len(orphans), maxOrphans)]
				groups = append(groups, &group{parents: orphans, label: "unsummarised:" + orphans[len(orphans)-1] + ".." + orphans[0]})
			}
			if level == date.LevelDay {
				// The whole range's best days by their summaries and keys,
				// beside those inside the chosen months: a day the months
				// above missed still counts as evidence (answer).
				groups = append(groups, &group{label: "*", k: max(starDaysPerResult*limit, starDaysMin), noVec: true})
			}
			if level == date.LevelEntry {
				// The whole range's best entries, searched from the start.
				// BM25 only: a flat vector scan of every entry costs more
				// than the whole drill.
				groups = append(groups, star)
			}
		}
		if len(groups) == 0 {
			// Nothing chosen above: the entry level still has the best
			// entries of the whole range.
			parents = parents[:0]
			continue
		}
		n := max(2*k, 10)
		if err := searchGroups(ctx, s, groups, text, vec, level, r, n); err != nil {
			return nil, nil, false, err
		}
		if level == date.LevelEntry {
			if <-starDone; starErr != nil {
				return nil, nil, false, starErr
			}
			g := groups[len(groups)-1] // the whole range
			exhausted = g.label == "*" && len(g.hits) > 0 && len(g.hits) < n
		}
		// The best BM25 of the level, so that BM25 compares across parents.
		maxBM25 := 0.0
		var missing []string
		for _, g := range groups {
			for _, h := range g.hits {
				maxBM25 = max(maxBM25, h.BM25)
			}
			for _, v := range g.vec {
				missing = append(missing, v.ID)
			}
		}
		docs, err := s.Heads(ctx, level, missing)
		if err != nil {
			return nil, nil, false, err
		}
		parents = parents[:0]
		fusedBy := make([][]scored, len(groups))
		total := 0
		for i, g := range groups {
			fusedBy[i] = fuse(method, g.label, g.hits, g.vec, docs, maxBM25)
			total += len(fusedBy[i])
		}
		all = slices.Grow(all, total) // once a level, not doubling as it goes
		for i, g := range groups {
			fused := fusedBy[i]
			most := k
			if level == date.LevelEntry || g.k > 0 {
				most = len(fused) // every one found is evidence for its day (answer)
			}
			n := 0
			for _, c := range fused {
				if n == most || c.fused <= 0 || c.bm25Rank == 0 && c.cosine < minCosine {
					break
				}
				n++
				if level == date.LevelEntry && c.hit.Period != "" && g.label != "*" {
					c.parent = c.hit.Period // searched inside its day
				}
				all = append(all, c)
				if n > k {
					continue // evidence for answer, not a parent to search inside
				}
				parents = append(parents, c.hit.Period)
				path = append(path, string(level)+":"+c.hit.Period)
			}
		}
		slices.Sort(parents)
		parents = slices.Compact(parents)
	}
	return all, path, exhausted, nil
}

// searchGroups runs each group's BM25 and vector searches, two at a time;
// the groups of one parent each are ranked by one RankEach.
func searchGroups(ctx context.Context, s Searcher, groups []*group, text string, vec []float32, level date.Level, r date.Range, n int) error {
	var each []string
	for _, g := range groups {
		if g.each {
			each = append(each, g.parents[0])
		}
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	errs := make([]error, len(groups)+1)
	run := func(i int, f func() error) {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			errs[i] = f()
		}()
	}
	if len(each) > 0 {
		run(len(groups), func() error {
			byParent, err := s.RankEach(ctx, index.Query{Text: text, Level: level, Parents: each, Range: r, K: n})
			for _, g := range groups {
				if g.each {
					g.hits = byParent[g.parents[0]]
				}
			}
			return err
		})
	}
	var near []*group // vector searches left to this goroutine
	for i, g := range groups {
		if g.started {
			continue // running since the drill began
		}
		q := index.Query{Text: text, Level: level, Parents: g.parents, Range: r, K: n}
		if g.k > 0 {
			q.K = g.k
		}
		if vec != nil && !g.noVec {
			near = append(near, g)
		}
		if g.each {
			continue
		}
		run(i, func() (err error) {
			g.hits, err = rankEntries(ctx, s, q)
			return err
		})
	}
	// The vector scans are in memory: this goroutine does them while the
	// BM25 searches run.
	for _, g := range near {
		g.vec = s.Nearest(index.Query{Text: text, Level: level, Parents: g.parents, Range: r, K: max(n, g.k)}, vec)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// flat ranks one level without a drill: bm25, vector, or both fused.
func flat(ctx context.Context, s Searcher, text string, vec []float32, r date.Range, level date.Level, limit int, mode, method string) ([]scored, error) {
	g := &group{label: "*"}
	q := index.Query{Text: text, Level: level, Range: r, K: limit}
	if mode != ModeVector {
		hits, err := s.Rank(ctx, q)
		if err != nil {
			return nil, err
		}
		g.hits = hits
	}
	if mode != ModeBM25 && vec != nil {
		g.vec = s.Nearest(q, vec)
	}
	var ids []string
	maxBM25 := 0.0
	for _, h := range g.hits {
		maxBM25 = max(maxBM25, h.BM25)
	}
	for _, v := range g.vec {
		ids = append(ids, v.ID)
	}
	docs, err := s.Heads(ctx, level, ids)
	if err != nil {
		return nil, err
	}
	out := fuse(method, "", g.hits, g.vec, docs, maxBM25)
	return out[:min(len(out), limit)], nil
}

// rankEntries ranks as s.Rank does; at level entry it keeps the person's
// entries apart from what the loop wrote (captured agent turns, proxied
// chat: index.Hit.Captured): the q.K best of the person's and the
// q.K/capturedShortlist best of the loop's, in BM25 order, out of the 2·q.K
// best. A busy agent's hundred turns a day then do not push the person's
// entries off the shortlist, and a captured turn with the query's rare
// words still makes it. Without captured entries the hits are those of
// s.Rank.
func rankEntries(ctx context.Context, s Searcher, q index.Query) ([]index.Hit, error) {
	if q.Level != date.LevelEntry || q.K <= 0 {
		return s.Rank(ctx, q)
	}
	want := q.K
	q.K = 2 * want
	hits, err := s.Rank(ctx, q)
	if err != nil {
		return nil, err
	}
	own, loop := 0, 0
	out := hits[:0]
	for _, h := range hits {
		switch {
		case h.Captured && loop < max(want/capturedShortlist, 1):
			loop++
		case !h.Captured && own < want:
			own++
		default:
			continue
		}
		out = append(out, h)
	}
	return out, nil
}
