package index

import (
	"slices"
	"strings"
	"sync"

	"github.com/daybook/daybook/internal/util/date"
)

// genCache holds what recalls ask again and again and only a write
// changes, each for the generation of the index's contents it was found at
// (lock starts a new one): for each level, every orphan parent (see
// Orphans), and Count's answers. Walking every group of the vector store
// (some 3,600 on 5 years) three times a recall cost a fifth of the drill.
type genCache struct {
	mu     sync.Mutex
	gen    uint64
	byLvl  map[date.Level][]orphan
	filled bool

	countGen uint64
	counts   map[countKey]uint64 // Count's answers at countGen
}

type countKey struct {
	level date.Level
	r     date.Range
}

// maxCounts bounds the counts kept: ranges come from queries.
const maxCounts = 256

// count returns the count of key kept at generation gen.
func (c *genCache) count(gen uint64, key countKey) (uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.countGen != gen {
		return 0, false
	}
	n, ok := c.counts[key]
	return n, ok
}

// setCount keeps the count of key at generation gen.
func (c *genCache) setCount(gen uint64, key countKey, n uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.countGen != gen || c.counts == nil || len(c.counts) >= maxCounts {
		c.counts, c.countGen = map[countKey]uint64{}, gen
	}
	c.counts[key] = n
}

type orphan struct {
	parent string
	r      date.Range
}

// Orphans returns the parent periods of level's documents that overlap r
// but have no summary of their own: the days with entries but no daily
// summary yet (today), the months with dailies but no monthly summary (this
// month), the years with monthlies but no yearly one. The drill searches
// them beside the parents it chose, so that what is not consolidated yet is
// still found. Newest first.
func (x *Index) Orphans(level date.Level, r date.Range) []string {
	switch level {
	case date.LevelMonth, date.LevelDay, date.LevelEntry:
	default:
		return nil // no parents of their own, or not in the index
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	c := &x.cache
	c.mu.Lock()
	if !c.filled || c.gen != x.gen {
		c.byLvl = map[date.Level][]orphan{}
		for _, l := range []date.Level{date.LevelMonth, date.LevelDay, date.LevelEntry} {
			c.byLvl[l] = x.findOrphans(l)
		}
		c.gen, c.filled = x.gen, true
	}
	all := c.byLvl[level]
	c.mu.Unlock()
	var out []string
	for _, o := range all {
		if r.IsOpen() || r.Overlaps(o.r) {
			out = append(out, o.parent)
		}
	}
	return out
}

// findOrphans walks the vector store's groups and the documents waiting
// for vectors for level's orphan parents, newest first. x.mu is held.
func (x *Index) findOrphans(level date.Level) []orphan {
	up := level.Up()
	var out []orphan
	var key []byte // the summary's id, up:parent; a map lookup by string(key) does not allocate
	consider := func(k groupKey) {
		if k.level != level || k.parent == "" {
			return
		}
		key = append(append(append(key[:0], up...), ':'), k.parent...)
		if x.vec.has(string(key)) {
			return
		}
		if _, ok := x.pending[string(key)]; ok {
			return
		}
		if pr, ok := periodRange(k.parent); ok {
			out = append(out, orphan{k.parent, pr})
		}
	}
	for k := range x.vec.groups {
		consider(k)
	}
	for k := range x.pendingGroups { // documents waiting for their vectors
		consider(k)
	}
	slices.SortFunc(out, func(a, b orphan) int { return strings.Compare(b.parent, a.parent) })
	return slices.CompactFunc(out, func(a, b orphan) bool { return a.parent == b.parent }) // a parent both stored and waiting
}
