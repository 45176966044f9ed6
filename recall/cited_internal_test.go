package recall

import (
	"testing"

	"github.com/daybook/daybook"
)

// An echo never outranks what it restates: a captured answer that cites
// an entry below it moves to just below that entry, with its score.
func TestBelowCited(t *testing.T) {
	out := []daybook.RecallResult{{ID: "echo", Score: 0.9}, {ID: "other", Score: 0.8}, {ID: "note", Score: 0.7}, {ID: "last", Score: 0.1}}
	got := belowCited(out, map[string][]string{"echo": {"note", "elsewhere"}})
	want := []string{"other", "note", "echo", "last"}
	for i, id := range want {
		if got[i].ID != id {
			t.Fatalf("order %v, want %v", got, want)
		}
	}
	if got[2].Score != 0.7 {
		t.Errorf("the echo's score %v, want the note's 0.7", got[2].Score)
	}
	same := belowCited([]daybook.RecallResult{{ID: "note"}, {ID: "echo"}}, map[string][]string{"echo": {"note"}})
	if same[0].ID != "note" {
		t.Errorf("an echo already below moved: %v", same)
	}
}
