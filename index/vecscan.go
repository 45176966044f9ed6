package index

import (
	"container/heap"
	"math"
	"math/bits"
	"runtime"
	"sync"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
)

// The scan of the vector store: the k vectors nearest a query among a
// level's (the slots of the parents' groups, or every slot), by the int8
// dot product; a large store is split among the cores, and past
// parallelScan slots a pass over the sign bits keeps reRank(k) candidates
// for the exact product. The store itself (slots, arena, groups) is
// vectors.go.

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
	sc := scan{v: v, qc: quantizeQuery(q), level: level, lo: lo, hi: hi, k: k}
	h := &hitHeap{}
	switch {
	case level == date.LevelYear:
		for _, s := range v.groups[groupKey{level, ""}] {
			sc.consider(h, s)
		}
	case len(parents) > 0:
		for _, p := range parents {
			for _, s := range v.groups[groupKey{level, p}] {
				sc.consider(h, s)
			}
		}
	default:
		h = sc.all()
	}
	out := make([]VecHit, h.Len())
	for i := len(out) - 1; i >= 0; i-- {
		ss := heap.Pop(h).(slotScore)
		out[i] = VecHit{ID: v.ids[ss.slot], Cosine: float64(ss.score)}
	}
	return out
}

// scan is one query's pass over the store's slots.
type scan struct {
	v      *vectors
	qc     queryCodes
	level  date.Level
	lo, hi int32
	k      int
	parts  int  // goroutines of a flat scan; 0: as many as GOMAXPROCS, up to 8
	exact  bool // no sign-bit pass: every vector by its codes (benchmarks compare)
}

// consider scores slot s and keeps it in h when it is among the best k.
func (sc *scan) consider(h *hitHeap, s int32) {
	v := sc.v
	m := &v.meta[s]
	if m.end < sc.lo || m.start > sc.hi || v.groupKeys[m.group].level != sc.level {
		return
	}
	c := slotScore{s, float32(v.dot(sc.qc.codes, s)) * sc.qc.inv * v.scale[s]}
	if h.Len() < sc.k {
		heap.Push(h, c)
	} else if worse((*h)[0], c) {
		(*h)[0] = c
		heap.Fix(h, 0)
	}
}

// parallelScan is how many slots a flat scan must cover before it is
// split among the cores: 925,000 vectors of 768 dimensions (20 years of a
// person's entries with an Ollama model) take ~25 ms on one core.
const parallelScan = 100_000

// all scans every slot, on up to GOMAXPROCS goroutines for a large store;
// ties are broken by slot, so the best k are the same however it is split.
func (sc *scan) all() *hitHeap {
	v := sc.v
	n := len(v.ids)
	parts := sc.parts
	if parts == 0 {
		parts = min(runtime.GOMAXPROCS(0), 8)
	}
	if v.signWords > 0 && n >= parallelScan && !sc.exact {
		return sc.signScan(parts)
	}
	if n < parallelScan || parts < 2 {
		h := &hitHeap{}
		for s := range n {
			if v.ids[s] != "" {
				sc.consider(h, int32(s))
			}
		}
		return h
	}
	heaps := make([]*hitHeap, parts)
	var wg sync.WaitGroup
	for p := range parts {
		heaps[p] = &hitHeap{}
		wg.Go(func() {
			for s := p * n / parts; s < (p+1)*n/parts; s++ {
				if v.ids[s] != "" {
					sc.consider(heaps[p], int32(s))
				}
			}
		})
	}
	wg.Wait()
	h := heaps[0]
	for _, o := range heaps[1:] {
		for _, c := range *o {
			if h.Len() < sc.k {
				heap.Push(h, c)
			} else if worse((*h)[0], c) {
				(*h)[0] = c
				heap.Fix(h, 0)
			}
		}
	}
	return h
}

// A flat scan of a large store of a big model reads every vector: 925,000
// of 768 dimensions are 710 MB of codes, more than memory delivers in
// 20 ms. signScan reads their sign bits instead (96 bytes a vector), keeps
// the reRank closest by Hamming distance to the query's signs, and ranks
// those by their codes, as a scan of all would. On embeddings the true best
// k are almost always among them; where one is not, a flat vector search
// misses it (a drill's scans, inside parents, are exact).

// reRank returns how many candidates signScan ranks by their codes for k.
func reRank(k int) int { return max(40*k, 1000) }

// signScan is the flat scan by sign bits, then codes. Distances are small
// integers (at most dim), so the closest are chosen by a histogram of them,
// not a heap: the distance below which fewer than reRank slots lie, those
// slots, and of the slots at that distance the first in slot order.
func (sc *scan) signScan(parts int) *hitHeap {
	v := sc.v
	n := len(v.ids)
	q := make([]uint64, v.signWords)
	for i, c := range sc.qc.codes {
		if c > 0 {
			q[i/64] |= 1 << (i % 64)
		}
	}
	const skip = math.MaxUint16
	dist := make([]uint16, n)
	// The level test once per group, not a string compare per vector.
	ofLevel := make([]bool, len(v.groupKeys))
	for g, k := range v.groupKeys {
		ofLevel[g] = k.level == sc.level
	}
	w := v.signWords
	parts = max(parts, 1)
	hists := make([][]int, parts)
	var wg sync.WaitGroup
	for p := range parts {
		hist := make([]int, v.dim+1)
		hists[p] = hist
		wg.Go(func() {
			for s := p * n / parts; s < (p+1)*n/parts; s++ {
				m := &v.meta[s]
				if m.group < 0 || m.end < sc.lo || m.start > sc.hi || !ofLevel[m.group] {
					dist[s] = skip
					continue
				}
				off := s % slabSize * w
				sig := v.signs[s/slabSize][off : off+w]
				d := 0
				for i, x := range sig {
					d += bits.OnesCount64(x ^ q[i])
				}
				dist[s] = uint16(d)
				hist[d]++
			}
		})
	}
	wg.Wait()
	keep := reRank(sc.k)
	limit, below := v.dim+1, 0 // slots closer than limit: all kept
	for d := 0; d <= v.dim; d++ {
		c := 0
		for _, h := range hists {
			c += h[d]
		}
		if below+c >= keep {
			limit = d
			break
		}
		below += c
	}
	atLimit := keep - below // how many of the slots at distance limit
	out := &hitHeap{}
	for s, d := range dist {
		switch {
		case int(d) < limit:
		case int(d) == limit && atLimit > 0:
			atLimit--
		default:
			continue
		}
		sc.consider(out, int32(s))
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

// worse reports whether a ranks below b: a lower score, or the same score
// and a later slot.
func worse(a, b slotScore) bool {
	return a.score < b.score || a.score == b.score && a.slot > b.slot
}

// hitHeap is a min-heap on score: the worst of the best k on top.
type hitHeap []slotScore

func (h hitHeap) Len() int           { return len(h) }
func (h hitHeap) Less(i, j int) bool { return worse(h[i], h[j]) }
func (h hitHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *hitHeap) Push(x any)        { *h = append(*h, x.(slotScore)) }
func (h *hitHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
