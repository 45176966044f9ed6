package scan

import "testing"

// TestPairSearch checks that a literal of common letters is searched by
// pairs (pairIndex), which dayfiles' TestMatcherRandom then exercises.
func TestPairSearch(t *testing.T) {
	m, err := NewMatcher("master", false)
	if err != nil {
		t.Fatal(err)
	}
	if !m.pair {
		t.Error(`"master" is not searched by pairs`)
	}
	if m, _ := NewMatcher("zebra", false); m.pair {
		t.Error(`"zebra" is searched by pairs, though z is rare`)
	}
}
