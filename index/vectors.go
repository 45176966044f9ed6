package index

import (
	"container/heap"
	"math"
	"time"

	"github.com/daybook/daybook/date"
)

// vecMeta is what the vector store keeps beside a vector for filtering.
type vecMeta struct {
	level  date.Level
	parent string // the parent period, "" for a year
	start  int32  // days since 1970-01-01
	end    int32
}

type groupKey struct {
	level  date.Level
	parent string
}

// slotMeta is what a slot keeps of its vecMeta: the level and parent are
// its group's (groupKeys), so that 231,000 vectors do not hold 231,000
// copies of a parent string. 12 bytes instead of 40 and a string each.
type slotMeta struct {
	group      int32 // index into groupKeys; -1 for a free slot
	start, end int32
}

// vectors is a flat in-memory vector store: brute-force cosine over
// normalised vectors, grouped by level and parent period so that a drill
// step scans only the children of one period. Each vector is kept as int8
// codes with one float32 scale (component = code × scale): a quarter of the
// memory of float32; at 256 dimensions a cosine moves by about 0.001.
type vectors struct {
	dim    int
	ids    []string // by slot; "" is a free slot
	meta   []slotMeta
	slabs  [][]int8  // slabSize vectors each: growing never copies what is there
	scale  []float32 // by slot
	slot   map[string]int32
	groups map[groupKey][]int32
	free   []int32
	tmp    []float32 // put's scratch; put runs under the index's write lock

	groupKeys []groupKey         // by group index, as slotMeta holds it
	groupIdx  map[groupKey]int32 // the inverse
}

func newVectors(dim int) *vectors {
	return &vectors{dim: dim, slot: map[string]int32{}, groups: map[groupKey][]int32{}, groupIdx: map[groupKey]int32{}}
}

// slotMetaOf returns m as a slot keeps it, adding its group to the table.
func (v *vectors) slotMetaOf(m vecMeta) slotMeta {
	k := groupKey{m.level, m.parent}
	g, ok := v.groupIdx[k]
	if !ok {
		g = int32(len(v.groupKeys))
		v.groupKeys = append(v.groupKeys, k)
		v.groupIdx[k] = g
	}
	return slotMeta{group: g, start: m.start, end: m.end}
}

// metaOf returns the vecMeta of slot s.
func (v *vectors) metaOf(s int32) vecMeta {
	m := v.meta[s]
	k := v.groupKeys[m.group]
	return vecMeta{level: k.level, parent: k.parent, start: m.start, end: m.end}
}

func (v *vectors) len() int { return len(v.slot) }

// slabSize is how many vectors one slab holds.
const slabSize = 1024

// code returns the int8 codes of the vector in slot s.
func (v *vectors) code(s int32) []int8 {
	off := (int(s) % slabSize) * v.dim
	return v.slabs[int(s)/slabSize][off : off+v.dim]
}

// vector writes the vector in slot s into dst and returns it.
func (v *vectors) vector(s int32, dst []float32) []float32 {
	dst = dst[:v.dim]
	sc := v.scale[s]
	for i, c := range v.code(s) {
		dst[i] = float32(c) * sc
	}
	return dst
}

// store normalises vec and writes it into slot s as codes and a scale.
func (v *vectors) store(s int32, vec []float32) {
	if len(v.tmp) != v.dim {
		v.tmp = make([]float32, v.dim)
	}
	normalizeInto(v.tmp, vec)
	v.scale[s] = quantize(v.code(s), v.tmp)
}

// quantize writes src as int8 codes into dst and returns the scale.
func quantize(dst []int8, src []float32) float32 {
	var m float32
	for _, x := range src {
		m = max(m, x, -x)
	}
	if m == 0 {
		clear(dst)
		return 0
	}
	inv := 127 / m
	var n float64
	for i, x := range src {
		c := int8(math.Round(float64(x * inv)))
		dst[i] = c
		n += float64(c) * float64(c)
	}
	// The scale makes the decoded vector unit length again, so that a dot
	// product with a normalised query is a cosine: only the direction is off,
	// by the rounding.
	return float32(1 / math.Sqrt(n))
}

// put stores vec (normalised here) for id, replacing what id had.
func (v *vectors) put(id string, m vecMeta, vec []float32) {
	sm := v.slotMetaOf(m)
	if s, ok := v.slot[id]; ok {
		if v.meta[s].group != sm.group {
			v.ungroup(s)
			v.meta[s] = sm
			k := v.groupKeys[sm.group]
			v.groups[k] = append(v.groups[k], s)
		}
		v.meta[s] = sm
		v.store(s, vec)
		return
	}
	var s int32
	if n := len(v.free); n > 0 {
		s, v.free = v.free[n-1], v.free[:n-1]
		v.ids[s], v.meta[s] = id, sm
	} else {
		s = int32(len(v.ids))
		v.ids = append(v.ids, id)
		v.meta = append(v.meta, sm)
		v.scale = append(v.scale, 0)
		if int(s)/slabSize == len(v.slabs) {
			v.slabs = append(v.slabs, make([]int8, slabSize*v.dim))
		}
	}
	v.store(s, vec)
	v.slot[id] = s
	k := v.groupKeys[sm.group]
	v.groups[k] = append(v.groups[k], s)
}

// del removes id; it reports whether id was there.
func (v *vectors) del(id string) bool {
	s, ok := v.slot[id]
	if !ok {
		return false
	}
	v.ungroup(s)
	delete(v.slot, id)
	v.ids[s] = ""
	v.meta[s] = slotMeta{group: -1}
	clear(v.code(s))
	v.scale[s] = 0
	v.free = append(v.free, s)
	return true
}

func (v *vectors) ungroup(s int32) {
	k := v.groupKeys[v.meta[s].group]
	g := v.groups[k]
	for i, x := range g {
		if x == s {
			g[i] = g[len(g)-1]
			g = g[:len(g)-1]
			break
		}
	}
	if len(g) == 0 {
		delete(v.groups, k)
	} else {
		v.groups[k] = g
	}
}

// VecHit is one vector match.
type VecHit struct {
	ID     string
	Cosine float64
}

// nearest returns the k vectors most similar to q (normalised) among those of
// level inside parents (none for any parent) that overlap r, best first.
func (v *vectors) nearest(q []float32, level date.Level, parents []string, r date.Range, k int) []VecHit {
	if k <= 0 || len(q) != v.dim {
		return nil
	}
	lo, hi := int32(math.MinInt32), int32(math.MaxInt32)
	if !r.From.IsZero() {
		lo = dayNum(r.From)
	}
	if !r.To.IsZero() {
		hi = dayNum(r.To)
	}
	qc := quantizeQuery(q)
	h := &hitHeap{}
	consider := func(s int32) {
		m := &v.meta[s]
		if m.end < lo || m.start > hi || v.groupKeys[m.group].level != level {
			return
		}
		c := float32(dotCodes(qc.codes, v.code(s))) * qc.inv * v.scale[s]
		if h.Len() < k {
			heap.Push(h, slotScore{s, c})
		} else if c > (*h)[0].score {
			(*h)[0] = slotScore{s, c}
			heap.Fix(h, 0)
		}
	}
	switch {
	case level == LevelYear:
		for _, s := range v.groups[groupKey{level, ""}] {
			consider(s)
		}
	case len(parents) > 0:
		for _, p := range parents {
			for _, s := range v.groups[groupKey{level, p}] {
				consider(s)
			}
		}
	default:
		for s := range v.ids {
			if v.ids[s] != "" {
				consider(int32(s))
			}
		}
	}
	out := make([]VecHit, h.Len())
	for i := len(out) - 1; i >= 0; i-- {
		ss := heap.Pop(h).(slotScore)
		out[i] = VecHit{ID: v.ids[ss.slot], Cosine: float64(ss.score)}
	}
	return out
}

// normalizeInto writes src scaled to unit length into dst; a zero vector stays zero.
func normalizeInto(dst, src []float32) {
	var n float64
	for _, x := range src {
		n += float64(x) * float64(x)
	}
	inv := float32(0)
	if n > 0 {
		inv = float32(1 / math.Sqrt(n))
	}
	for i, x := range src {
		dst[i] = x * inv
	}
}

// Normalize returns v scaled to unit length.
func Normalize(v []float32) []float32 {
	out := make([]float32, len(v))
	normalizeInto(out, v)
	return out
}

func dayNum(d date.Date) int32 { return int32(d.In(time.UTC).Unix() / 86400) }

type slotScore struct {
	slot  int32
	score float32
}

// hitHeap is a min-heap on score: the worst of the best k on top.
type hitHeap []slotScore

func (h hitHeap) Len() int           { return len(h) }
func (h hitHeap) Less(i, j int) bool { return h[i].score < h[j].score }
func (h hitHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *hitHeap) Push(x any)        { *h = append(*h, x.(slotScore)) }
func (h *hitHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
