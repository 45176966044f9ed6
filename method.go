package daybook

import (
	"fmt"
	"strings"
)

// Method says how a recall found its results. On the wire it is one string:
// its Start, then "+linear" when the linear scan filled up after the drill,
// "+outside" when the rest of the range followed a temporal phrase's, and,
// with --explain, a note when the vectors were off: "drill+linear",
// "days+outside", "drill (vectors off: ...)".
type Method struct {
	Start      MethodStart
	Linear     bool // the linear scan filled up after the drill's results
	Outside    bool // the best of the rest of the range followed the phrase's range
	VectorsOff bool // ranked by text alone: the embedder was unavailable
}

// MethodStart is what answered first: the drill (named by the level it
// started at), a flat mode, the linear scan, or nothing.
type MethodStart string

// The starts a recall reports.
const (
	MethodDrill  MethodStart = "drill"  // from the years down
	MethodMonths MethodStart = "months" // no yearly summaries in range
	MethodDays   MethodStart = "days"   // no monthly summaries either
	MethodBM25   MethodStart = "bm25"
	MethodVector MethodStart = "vector"
	MethodLinear MethodStart = "linear"
	MethodNone   MethodStart = "none" // nothing to look for
)

const vectorsOffNote = " (vectors off: the embedder is unavailable; ranked by text alone)"

// String is the method as the wire and the CLI give it.
func (m Method) String() string {
	s := string(m.Start)
	if m.Linear {
		s += "+linear"
	}
	if m.Outside {
		s += "+outside"
	}
	if m.VectorsOff {
		s += vectorsOffNote
	}
	return s
}

// MarshalText writes String.
func (m Method) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads what MarshalText wrote.
func (m *Method) UnmarshalText(b []byte) error {
	s := string(b)
	var out Method
	if rest, ok := strings.CutSuffix(s, vectorsOffNote); ok {
		s, out.VectorsOff = rest, true
	}
	if rest, ok := strings.CutSuffix(s, "+outside"); ok {
		s, out.Outside = rest, true
	}
	if rest, ok := strings.CutSuffix(s, "+linear"); ok {
		s, out.Linear = rest, true
	}
	switch st := MethodStart(s); st {
	case MethodDrill, MethodMonths, MethodDays, MethodBM25, MethodVector, MethodLinear, MethodNone, "":
		out.Start = st
	default:
		return fmt.Errorf("recall method %q: want drill, months, days, bm25, vector, linear or none", string(b))
	}
	*m = out
	return nil
}
