package index

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/daybook/daybook/dayfiles/date"
)

// TestDotCodes checks the assembly (on amd64 with AVX2) against the Go
// sums on every length up to 100 and at the usual dimensions, with codes at
// their extremes, and quantizeQuery's cosines against float32 ones.
func TestDotCodes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range append([]int{256, 384, 512, 768, 1024, 1536}, seq(100)...) {
		a := make([]int16, n)
		b := make([]int8, n)
		for trial := range 20 {
			for i := range a {
				switch trial {
				case 0: // extremes: the largest sums the codes allow
					a[i], b[i] = math.MaxInt16, math.MinInt8
				case 1:
					a[i], b[i] = math.MinInt16+1, math.MinInt8
				default:
					a[i], b[i] = int16(r.IntN(65535)-32767), int8(r.IntN(255)-127)
				}
			}
			if trial < 2 && n > 516 {
				continue // quantizeQuery never makes codes this large at n
			}
			if got, want := dotCodes(a, b), dotGo(a, b); got != want {
				t.Fatalf("n=%d trial %d: dotCodes = %d, dotGo = %d", n, trial, got, want)
			}
		}
	}
	t.Logf("AVX2: %v", hasAVX2)
	// The cosine through int16 query codes is the float32 one to 1e-4.
	for _, dim := range []int{256, 768, 1600} {
		v := newVectors(dim)
		vec := Normalize(randVec(r, dim))
		v.put("x", vecMeta{level: date.LevelEntry}, vec)
		for range 200 {
			q := Normalize(randVec(r, dim))
			var want float32
			for i, c := range v.code(0) {
				want += q[i] * float32(c) * v.scale[0]
			}
			qc := quantizeQuery(q)
			got := float32(dotCodes(qc.codes, v.code(0))) * qc.inv * v.scale[0]
			if math.Abs(float64(got-want)) > 1e-4 {
				t.Fatalf("dim %d: cosine %v through int16, %v in float32", dim, got, want)
			}
		}
	}
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

func BenchmarkDotCodes(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	q := quantizeQuery(Normalize(randVec(r, 256)))
	c := make([]int8, 256)
	for i := range c {
		c[i] = int8(r.IntN(255) - 127)
	}
	b.Run("asm", func(b *testing.B) {
		for b.Loop() {
			dotCodes(q.codes, c)
		}
	})
	b.Run("go", func(b *testing.B) {
		for b.Loop() {
			dotGo(q.codes, c)
		}
	})
}
