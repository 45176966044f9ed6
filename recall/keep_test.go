package recall

import "testing"

// Every level the drill walks keeps some of its hits: an unknown level was a
// map lookup's 0, "keep nothing".
func TestDrillKeepsSomeOfEveryLevel(t *testing.T) {
	for _, l := range levels {
		if keep(l, 10) <= 0 {
			t.Errorf("the drill keeps %d of level %s", keep(l, 10), l)
		}
	}
}
