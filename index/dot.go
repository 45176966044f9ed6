package index

import "math"

// The vector scan is the drill's largest cost of its own: ~6,000 entry
// vectors of 256 dimensions a recall. The query is turned into int16 once
// and each stored vector's int8 codes are multiplied with it in integers:
// with AVX2 (dot_amd64.s) 16 products an instruction, about 7 times the
// float loop; elsewhere the same sums in Go. Both give the same int32, so
// a recall ranks alike on every machine.

// queryCodes is a query vector as int16 codes: component ≈ code × inv.
type queryCodes struct {
	codes []int16
	inv   float32
}

// quantizeQuery returns q as int16 codes, as fine as the sums allow: the
// largest |code| is chosen so that dims × |code| × 127 stays inside an
// int32 (32,767 up to 516 dimensions, 10,569 at 1,600).
func quantizeQuery(q []float32) queryCodes {
	var m float32
	for _, x := range q {
		m = max(m, x, -x)
	}
	out := queryCodes{codes: make([]int16, len(q))}
	if m == 0 || len(q) == 0 {
		return out
	}
	top := min(math.MaxInt16, (math.MaxInt32/127)/len(q))
	s := float32(top) / m
	for i, x := range q {
		out.codes[i] = int16(math.Round(float64(x * s)))
	}
	out.inv = 1 / s
	return out
}

// dotGo is the dot product of int16 and int8 codes, in Go.
func dotGo(a []int16, b []int8) int32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 int32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += int32(a[i]) * int32(b[i])
		s1 += int32(a[i+1]) * int32(b[i+1])
		s2 += int32(a[i+2]) * int32(b[i+2])
		s3 += int32(a[i+3]) * int32(b[i+3])
	}
	for ; i < len(a); i++ {
		s0 += int32(a[i]) * int32(b[i])
	}
	return s0 + s1 + s2 + s3
}
