package recall

import (
	"testing"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
)

// Equal scores are ordered the same way whatever order the index gave the
// hits in: newer first, as days are.
func TestAnswerBreaksTiesTheSameWayWhateverTheInputOrder(t *testing.T) {
	hit := func(id, period string) scored {
		return scored{hit: index.Hit{ID: id, Level: date.LevelEntry, Period: period}, bm25: 0.5, bm25Rank: 1}
	}
	a := hit("2025-03-26T09:14-aaaaaaaaaaaa", "2025-03-26")
	b := hit("2025-03-26T17:40-bbbbbbbbbbbb", "2025-03-26")
	c := hit("2025-03-25T12:00-cccccccccccc", "2025-03-25")
	for _, in := range [][]scored{{a, b, c}, {b, a, c}, {c, a, b}, {c, b, a}} {
		out := answer(in, "", date.Range{})
		var got []string
		for _, x := range out {
			got = append(got, x.hit.ID)
		}
		want := []string{b.hit.ID, c.hit.ID, a.hit.ID} // the newer day's newer entry, the other day, then the day's second
		if len(got) != len(want) {
			t.Fatalf("input %v: got %v, want %v", ids(in), got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("input %v: got %v, want %v", ids(in), got, want)
			}
		}
	}
}

func ids(s []scored) []string {
	var out []string
	for _, x := range s {
		out = append(out, x.hit.ID)
	}
	return out
}
