package index

import (
	"slices"
	"strings"
	"sync"

	"github.com/daybook/daybook/dayfiles/date"
)

// What recalls ask again and again and only a write changes is kept: the
// vector store's orphan parents of each level (see Orphans), for the shape
// of the store they were found at (vectors.shape: groups made or emptied,
// summaries put or deleted, and the same of the documents waiting for
// vectors), which a remembered entry does not change; the text index's
// counts (Count), for the generation of its contents. Walking every group
// of the vector store (some 3,600 on 5 years) three times a recall cost a
// fifth of the drill, and after each write ~1 ms of the next context.

// orphanCache holds every orphan parent of each level, of one generation
// of the vector store.
type orphanCache struct {
	mu     sync.Mutex
	vec    *vectors // the store, and the shapes of it and of pending, they were found at
	shape  uint64
	pshape uint64
	byLvl  map[date.Level][]orphan
}

type countKey struct {
	level date.Level
	r     date.Range
}

// maxCounts bounds the counts kept: ranges come from queries.
const maxCounts = 256

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
func (v *VectorStore) Orphans(level date.Level, r date.Range) []string {
	switch level {
	case date.LevelMonth, date.LevelDay, date.LevelEntry:
	default:
		return nil // no parents of their own, or not in the index
	}
	v.mu.RLock()
	defer v.mu.RUnlock()
	c := &v.orphans
	c.mu.Lock()
	if c.vec != v.vec || c.shape != v.vec.shape || c.pshape != v.pendingShape {
		c.byLvl = map[date.Level][]orphan{}
		for _, l := range []date.Level{date.LevelMonth, date.LevelDay, date.LevelEntry} {
			c.byLvl[l] = v.findOrphans(l)
		}
		c.vec, c.shape, c.pshape = v.vec, v.vec.shape, v.pendingShape
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
// for vectors for level's orphan parents, newest first. v.mu is held.
func (v *VectorStore) findOrphans(level date.Level) []orphan {
	up := level.Up()
	var out []orphan
	var key []byte // the summary's id, up:parent; a map lookup by string(key) does not allocate
	consider := func(k groupKey) {
		if k.level != level || k.parent == "" {
			return
		}
		key = append(append(append(key[:0], up...), ':'), k.parent...)
		if v.vec.has(string(key)) {
			return
		}
		if _, ok := v.pending[string(key)]; ok {
			return
		}
		if pr, ok := periodRange(k.parent); ok {
			out = append(out, orphan{k.parent, pr})
		}
	}
	for k := range v.vec.groups {
		consider(k)
	}
	for k := range v.pendingGroups { // documents waiting for their vectors
		consider(k)
	}
	slices.SortFunc(out, func(a, b orphan) int { return strings.Compare(b.parent, a.parent) })
	return slices.CompactFunc(out, func(a, b orphan) bool { return a.parent == b.parent }) // a parent both stored and waiting
}
