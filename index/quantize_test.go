package index

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/daybook/daybook/dayfiles/date"
)

// TestQuantizedCosine checks that the int8 store gives cosines close to the
// exact float64 ones on random 256-dimension vectors, and finds a stored
// vector as its own nearest.
func TestQuantizedCosine(t *testing.T) {
	const dim, n = 256, 500
	rng := rand.New(rand.NewPCG(1, 2))
	v := newVectors(dim)
	exact := make([][]float64, n)
	for i := range n {
		vec := make([]float32, dim)
		e := make([]float64, dim)
		var norm float64
		for j := range vec {
			x := rng.NormFloat64()
			if j%7 == 0 {
				x *= 4 // uneven components, as hashed features are
			}
			vec[j], e[j] = float32(x), x
			norm += x * x
		}
		for j := range e {
			e[j] /= math.Sqrt(norm)
		}
		exact[i] = e
		v.put(string(rune('a'+i%26))+string(rune(i)), vecMeta{level: date.LevelEntry, parent: "2026-01-01"}, vec)
	}
	worst := 0.0
	for i := range 50 {
		q := make([]float32, dim)
		for j := range q {
			q[j] = float32(exact[i][j])
		}
		hits := v.nearest(q, date.LevelEntry, nil, date.Range{}, n)
		if len(hits) != n {
			t.Fatalf("%d hits, want %d", len(hits), n)
		}
		if got := hits[0].ID; got != v.ids[i] {
			t.Errorf("query %d: nearest is %s, want itself (%s)", i, got, v.ids[i])
		}
		for _, h := range hits {
			s := v.testSlot(h.ID)
			var want float64
			for j := range dim {
				want += exact[i][j] * exact[s][j]
			}
			worst = max(worst, math.Abs(h.Cosine-want))
		}
	}
	if worst > 0.01 {
		t.Errorf("worst cosine error %.4f, want ≤ 0.01", worst)
	}
	t.Logf("worst cosine error over %d pairs: %.5f", 50*n, worst)
}
