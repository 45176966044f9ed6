package recall

import (
	"math"
	"slices"
	"strings"

	"github.com/daybook/daybook/index"
)

// Fusion methods: how BM25 and cosine make one similarity.
const (
	// FuseSum is a normalised sum: half BM25 divided by the best BM25 of the
	// level's searches (all parents together, so that scores compare across
	// parents), half the cosine, clamped at 0.
	FuseSum = "sum"
	// FuseRRF is reciprocal-rank fusion with k = 60, scaled so that rank 1 in
	// both lists is 1.
	FuseRRF = "rrf"
)

// scored is one candidate of a level with its score parts.
type scored struct {
	hit        index.Hit
	parent     string
	bm25       float64
	bm25Rank   int // 1-based; 0 when BM25 did not find it
	cosine     float64
	cosineRank int
	fused      float64
	day        *dayScore // the day it is ranked by (answer)
}

// fuse merges the BM25 and vector candidates of one search into scored
// candidates, keyed by id, best first. maxBM25 is the best BM25 of the level.
func fuse(method string, parent string, bm []index.Hit, vec []index.VecHit, docs map[string]index.Hit, maxBM25 float64) []scored {
	// One slice of the candidates, in the order first found, and their
	// indices by id: no allocation per candidate.
	out := make([]scored, 0, len(bm)+len(vec))
	byID := make(map[string]int, len(bm)+len(vec))
	get := func(id string) *scored {
		if i, ok := byID[id]; ok {
			return &out[i]
		}
		byID[id] = len(out)
		out = append(out, scored{parent: parent})
		return &out[len(out)-1]
	}
	for i, h := range bm {
		s := get(h.ID)
		s.hit, s.bm25, s.bm25Rank = h, h.BM25, i+1
	}
	for i, v := range vec {
		d, ok := docs[v.ID]
		if _, seen := byID[v.ID]; !seen && !ok {
			continue // in the vector store but not in bleve: a write half-done
		}
		s := get(v.ID)
		if s.hit.ID == "" {
			s.hit = d
		}
		s.cosine, s.cosineRank = v.Cosine, i+1
	}
	for i := range out {
		s := &out[i]
		s.fused = fusedScore(method, s.bm25, s.bm25Rank, s.cosine, s.cosineRank, maxBM25)
	}
	slices.SortStableFunc(out, func(a, b scored) int {
		if a.fused != b.fused {
			if a.fused > b.fused {
				return -1
			}
			return 1
		}
		return strings.Compare(b.hit.Period, a.hit.Period) // newer first among equals
	})
	return out
}

func fusedScore(method string, bm25 float64, bmRank int, cos float64, cosRank int, maxBM25 float64) float64 {
	if method == FuseRRF {
		s := 0.0
		if bmRank > 0 {
			s += 1 / float64(rrfK+bmRank)
		}
		if cosRank > 0 && cos > 0 {
			s += 1 / float64(rrfK+cosRank)
		}
		return s / (2.0 / (rrfK + 1))
	}
	b := 0.0
	if maxBM25 > 0 {
		b = bm25 / maxBM25
	}
	return sumBM25Weight*b + (1-sumBM25Weight)*math.Max(cos, 0)
}
