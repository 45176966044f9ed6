package index

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/daybook/daybook/dayfiles"
)

// A changed source is compared with what the index holds of it, document by
// document, so that one new entry on a day of a thousand costs one embed,
// one vector record and a bleve batch of one document.

// docState is what the index holds of one document: enough to tell whether a
// new version of it changed, in bleve and in its vector.
type docState struct {
	doc uint64 // hash of everything bleve indexes of it
	vec uint64 // hash of what its vector stands for: text, level, period, dates
}

// stateOf returns the state of d; buf is scratch space, returned grown.
func stateOf(d Doc, buf []byte) (docState, []byte) {
	b := appendString(buf[:0], d.Text)
	b = appendString(b, string(d.Level))
	b = appendString(b, d.Period)
	b = binary.LittleEndian.AppendUint32(b, uint32(dayNum(d.Start)))
	b = binary.LittleEndian.AppendUint32(b, uint32(dayNum(d.End)))
	var st docState
	st.vec = fnv64a(b)
	b = appendString(b, d.Kind)
	b = appendString(b, d.Path)
	b = binary.AppendVarint(b, int64(d.Line))
	b = binary.AppendVarint(b, int64(d.EndLine))
	b = binary.AppendUvarint(b, uint64(len(d.Tags)))
	for _, t := range d.Tags {
		b = appendString(b, t)
	}
	st.doc = fnv64a(b)
	return st, b
}

func fnv64a(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}

// heldPaths is how many sources the write path remembers the documents of;
// the others are read back from bleve when they change.
const heldPaths = 32

// held mirrors what bleve holds of the sources written lately, by path and
// id. The write path owns it (under writeMu).
type held struct {
	paths map[string]map[string]docState
	order []string // least recently used first
}

func (h *held) get(path string) (map[string]docState, bool) {
	m, ok := h.paths[path]
	if ok {
		h.touch(path)
	}
	return m, ok
}

func (h *held) set(path string, m map[string]docState) {
	if h.paths == nil {
		h.paths = map[string]map[string]docState{}
	}
	if _, ok := h.paths[path]; !ok && len(h.paths) >= heldPaths {
		delete(h.paths, h.order[0])
		h.order = h.order[1:]
	}
	h.paths[path] = m
	h.touch(path)
}

func (h *held) drop(path string) {
	if _, ok := h.paths[path]; ok {
		delete(h.paths, path)
		h.order = slices.DeleteFunc(h.order, func(p string) bool { return p == path })
	}
}

func (h *held) touch(path string) {
	h.order = slices.DeleteFunc(h.order, func(p string) bool { return p == path })
	h.order = append(h.order, path)
}

// heldDocs returns what the index holds of the documents of path: from
// memory when it was written lately, else read back from bleve's stored
// fields: the state a located document was indexed with, the fields of
// another to hash again. The caller holds writeMu.
func (t *TextIndex) heldDocs(ctx context.Context, path string) (map[string]docState, error) {
	if m, ok := t.held.get(path); ok {
		return m, nil
	}
	q := pathQuery(path)
	m := map[string]docState{}
	var buf []byte
	for from := 0; ; {
		req := bleve.NewSearchRequestOptions(q, 10000, from, false)
		req.Fields = storedFields
		res, err := t.bl.SearchInContext(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("listing documents of %s: %w", path, err)
		}
		for _, h := range res.Hits {
			hit, loc := hitOf(h)
			if hit.Path != path {
				continue // another source's entry of the same day
			}
			if loc != nil {
				m[h.ID] = loc.state
				continue
			}
			d := Doc{ID: h.ID, Level: hit.Level, Period: hit.Period, Kind: hit.Kind, Tags: hit.Tags,
				Text: hit.Text, Path: hit.Path, Line: hit.Line}
			if r, ok := periodRange(hit.Period); ok {
				d.Start, d.End = r.From, r.To
			}
			// A document that does not read back whole hashes unlike any
			// source's: it is written again, which is all it costs.
			m[h.ID], buf = stateOf(d, buf)
		}
		from += len(res.Hits)
		if len(res.Hits) == 0 || uint64(from) >= res.Total {
			break
		}
	}
	t.held.set(path, m)
	return m, nil
}

// pathQuery returns the query for the documents of the source at path: its
// path term, and for a day file the documents of its day, as located
// documents have no path (a caller keeps those whose path is path).
func pathQuery(path string) query.Query {
	pq := bleve.NewTermQuery(path)
	pq.SetField("path")
	day, ok := dayfiles.DateOfRel(path)
	if !ok {
		return pq
	}
	dq := bleve.NewTermQuery(day.String())
	dq.SetField("day")
	return bleve.NewDisjunctionQuery(pq, dq)
}

// sourcePlan is what indexing one changed source does.
type sourcePlan struct {
	src    Source
	docs   []Doc                // the source's documents, one per id (the last, as bleve keeps)
	state  map[string]docState  // what the index holds of the source afterwards
	upsert []int                // docs new or changed in bleve
	vector []int                // docs that need a vector: new or changed text, or none yet
	reuse  map[string][]float32 // vectors of unchanged texts that moved to another id (a note's lines shifted)
	stale  []string             // ids the source had and has no more
}

// plan compares s with what the index holds of it. The caller holds writeMu.
func (x *Index) plan(ctx context.Context, s Source) (sourcePlan, error) {
	p := sourcePlan{src: s, state: make(map[string]docState, len(s.Docs))}
	at := make(map[string]int, len(s.Docs))
	for _, d := range s.Docs {
		if i, ok := at[d.ID]; ok {
			p.docs[i] = d
			continue
		}
		at[d.ID] = len(p.docs)
		p.docs = append(p.docs, d)
	}
	_, known := x.stamp(s.Path)
	var old map[string]docState
	if known {
		var err error
		if old, err = x.heldDocs(ctx, s.Path); err != nil {
			return p, err
		}
	}
	byVec := make(map[uint64]string, len(old))
	for id, st := range old {
		byVec[st.vec] = id
	}
	x.VectorStore.mu.RLock()
	defer x.VectorStore.mu.RUnlock()
	var buf []byte
	for i, d := range p.docs {
		var st docState
		st, buf = stateOf(d, buf)
		p.state[d.ID] = st
		was, had := old[d.ID]
		if !had || was.doc != st.doc {
			p.upsert = append(p.upsert, i)
		}
		hasVec := x.vec.has(d.ID)
		_, waits := x.pending[d.ID]
		if had && was.vec == st.vec && (hasVec || waits) {
			continue
		}
		p.vector = append(p.vector, i)
		// The same text under another id: its vector serves.
		if from, ok := byVec[st.vec]; ok && from != d.ID {
			if slot, ok := x.vec.slotOf(from); ok {
				if p.reuse == nil {
					p.reuse = map[string][]float32{}
				}
				p.reuse[d.ID] = x.vec.vector(slot, make([]float32, x.vec.dim))
			}
		}
	}
	for id := range old {
		if _, ok := p.state[id]; !ok {
			p.stale = append(p.stale, id)
		}
	}
	slices.SortFunc(p.stale, strings.Compare)
	return p, nil
}
