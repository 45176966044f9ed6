package recall_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/daybook/daybook/recall"
)

// QueryWords finds a query's words in each text as recall matches them: by
// stem and case-blind, whole words only, in texts of any script, and says
// which text holds which.
func TestQueryWordsFind(t *testing.T) {
	q := recall.NewQueryWords("What did the museum say about the Running club in Zürich?")
	// museum, say, running, club, zürich: the stop words are left out.
	if q.Len() != 5 {
		t.Fatalf("Len() = %d, want 5", q.Len())
	}
	texts := []string{
		"We went to two MUSEUMS and then ran home.",   // museum (plural, upper-case)
		"She runs every morning with the club.",       // running (its stem), club
		"A start-up, a partner, art: nothing of it.",  // none: no word holds a query word whole
		"Grüße aus ZÜRICH, sagte sie über das Museum", // zürich and museum, past the first non-ASCII letter
		"",
		strings.Repeat("filler words here ", 20) + "Club", // the last word of a long text
	}
	got := q.Find(texts)
	want := [][]int{{0}, {2, 3}, nil, {0, 4}, nil, {3}}
	if len(got) != len(want) {
		t.Fatalf("Find gave %d answers for %d texts", len(got), len(texts))
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("Find(%q) = %v, want %v", texts[i], got[i], want[i])
		}
	}
	if got := recall.NewQueryWords("the and of").Find([]string{"the and of"}); len(got) != 1 || got[0] != nil {
		t.Errorf("a query of stop words found %v", got)
	}
}
