package recall_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/daybook/daybook"
)

// A changed fact whose statements sit on busy days, their summaries silent
// about it, while a dozen days' summaries name the subject's words: the
// drill ranks those days first, and a captured question that restates the
// query leads: neither statement is among the ten best days. The change still comes first, among recall's ten, with
// the old value and the agent's echo of it marked superseded or left out.
func TestDrillLeadsWithAChangeOnABusyDay(t *testing.T) {
	f := newFixture(t)
	busy := func(day string, fact string) {
		texts := []string{fact}
		for i := range 30 {
			texts = append(texts, fmt.Sprintf("Errand %d: booked a delivery slot for the groceries.", i))
		}
		f.day(t, day, texts...)
		f.sums.add(day, "Errands all day: groceries and deliveries.")
	}
	for _, m := range []string{"2025-04", "2025-05", "2025-06"} {
		for i := 1; i <= 12; i++ {
			day := fmt.Sprintf("%s-%02d", m, i)
			f.day(t, day, "Took Sam to the swimming lesson.", "Swimming lessons: Mia swam a length.", "Long walk by the river.")
			f.sums.add(day, "Swimming lessons for the kids: Sam's swimming lesson, Mia swam a length.")
		}
		f.sums.add(m, "A month of swimming lessons for the kids.")
	}
	busy("2025-02-19", "Our swimming lesson slot is Tuesday 17:30.")
	busy("2025-07-21", "Changed the swimming lesson slot to Thursday 16:45.")
	f.day(t, "2025-07-25",
		"User: Which swimming lesson slot do we have? #claude-code #session-fbb212ec",
		"Assistant: The swimming lesson slot is Tuesday 17:30 (from your note of 19 February). #claude-code #session-fbb212ec")
	f.sums.add("2025-07-25", "A coding session.")
	f.sums.add("2025-02", "Errands.")
	f.sums.add("2025-07", "Errands and a coding session.")
	f.sums.add("2025", "Swimming lessons in May; errands.")
	f.sync(t)

	resp := f.recall(t, daybook.RecallRequest{Query: "Which swimming lesson slot do we have?", Limit: 10})
	if resp.Method.Start != daybook.MethodDrill {
		t.Fatalf("method %q, want the drill", resp.Method.Start)
	}
	if len(resp.Results) == 0 || !strings.Contains(resp.Results[0].Snippet, "Thursday 16:45") {
		t.Fatalf("recall leads with %v, want the change to Thursday 16:45", snippets(resp.Results))
	}
	change := resp.Results[0].ID
	for _, r := range resp.Results[1:] {
		if strings.Contains(r.Snippet, "Tuesday 17:30") && r.SupersededBy != change {
			t.Errorf("%s (%s) is not superseded by the change %s", r.ID, r.Snippet, change)
		}
	}
}

func snippets(rs []daybook.RecallResult) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Snippet)
	}
	return out
}
