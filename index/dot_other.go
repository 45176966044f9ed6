//go:build !amd64

package index

// hasAVX2 is an amd64 feature.
const hasAVX2 = false

// dotCodes is the dot product of int16 and int8 codes of the same length.
func dotCodes(a []int16, b []int8) int32 { return dotGo(a, b) }
