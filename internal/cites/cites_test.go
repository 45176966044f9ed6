package cites_test

import (
	"slices"
	"testing"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/cites"
)

func TestHandedAndMatch(t *testing.T) {
	resp := daybook.ContextResponse{
		Markdown: "# daybook context\n\n## Evidence\n\n### 2026-03-02 · days/2026/03/02.md\n- :3 09:00 [fact] The garage door code is 4417.\n" +
			"- :4 09:10 Bought seeds for the allotment.\n\n## Recent\n\n- [2026-11-20T10:00-aaaaaaaaaaaa] The bike shed key hangs behind the pantry door.\n",
		Items: []daybook.ContextItem{
			{ID: "2026-03-02T09:00-111111111111", Part: "evidence", Level: "entry", Line: 3},
			{ID: "2026-03-02T09:10-222222222222", Part: "evidence", Level: "entry", Line: 4},
			{ID: "2026-11-20T10:00-aaaaaaaaaaaa", Part: "recent", Level: "entry"},
			{ID: "day:2026-03-02", Part: "summaries", Level: "day"},
		},
	}
	h := cites.Handed(resp)
	if len(h) != 3 || !slices.Equal(h[0].Words, []string{"garage", "door", "code", "4417"}) {
		t.Fatalf("handed %+v", h)
	}
	for answer, want := range map[string][]string{
		"Your garage code is 4417.":                           {"2026-03-02T09:00-111111111111"},
		"The key to the bike shed is behind the pantry door.": {"2026-11-20T10:00-aaaaaaaaaaaa"},
		"I could not find a code for that door.":              nil,
	} {
		if got := cites.Match(answer, h); !slices.Equal(got, want) {
			t.Errorf("Match(%q) = %q, want %q", answer, got, want)
		}
	}
}
