package index

import "golang.org/x/sys/cpu"

var hasAVX2 = cpu.X86.HasAVX2

// dotCodes is the dot product of int16 and int8 codes of the same length.
func dotCodes(a []int16, b []int8) int32 {
	if hasAVX2 && len(a) > 0 {
		b = b[:len(a)]
		return dotAVX2(&a[0], &b[0], len(a))
	}
	return dotGo(a, b)
}

// dotAVX2 is in dot_amd64.s.
//
//go:noescape
func dotAVX2(a *int16, b *int8, n int) int32
