package recall_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/daybook/daybook/recall"
)

// The garage door code: a note, its change, and a captured session whose
// question and answer repeat the old value, all scored alike. The change
// takes the first place; the old note and the agent's echo are superseded
// by it; the captured question keeps its place after the change.
func TestSupersedeGarageDoorCode(t *testing.T) {
	cc := []string{"claude-code", "session-1a2b3c4d"}
	stmts := []recall.Statement{
		{ID: "2026-09-20T10:01-e", Text: "Assistant: The garage door code is 4417 (from your note of 2 March). #claude-code #session-1a2b3c4d", Tags: cc, Score: 0.6},
		{ID: "2026-09-20T10:00-q", Text: "User: what is the garage door code? #claude-code #session-1a2b3c4d", Tags: cc, Score: 0.6},
		{ID: "2026-06-14T18:05-c", Text: "Changed the garage door code to 5521 after the break-in.", Score: 0.6},
		{ID: "2026-03-02T09:10-o", Text: "The garage door code is 4417.", Score: 0.6},
	}
	order, by := recall.Supersede(recall.NewQueryWords("what is the garage door code?"), stmts)
	if want := []int{2, 1, 0, 3}; !slices.Equal(order, want) {
		t.Errorf("order %v, want %v (the change, the question, then the echo and the old note)", order, want)
	}
	if len(by) != 2 || by[0] != "2026-06-14T18:05-c" || by[3] != "2026-06-14T18:05-c" {
		t.Errorf("superseded %v: want the echo (0) and the old note (3) superseded by the change", by)
	}
}

func TestSupersedeLeavesAlone(t *testing.T) {
	q := recall.NewQueryWords("which gym locker number do we have?")
	cases := map[string][]recall.Statement{
		// The same value said again is no change.
		"a restatement": {
			{ID: "2026-05-01T09:00-b", Text: "Reminder: the gym locker number is L-118.", Score: 0.7},
			{ID: "2026-01-01T09:00-a", Text: "The gym locker number is L-118.", Score: 0.7},
		},
		// A newer statement with a query word the older lacks is about
		// another subject, and one that lacks a query word of the older
		// changes it only when it says so.
		"another subject": {
			{ID: "2026-01-01T09:00-a", Text: "The gym locker number is L-118.", Score: 0.9},
			{ID: "2026-05-01T09:00-b", Text: "The climbing gym membership number is now CG-77120.", Score: 0.4},
		},
		// Scores far apart, no word of change: not near-equals.
		"far apart": {
			{ID: "2026-01-01T09:00-a", Text: "The gym locker number is L-118.", Score: 1},
			{ID: "2026-05-01T09:00-b", Text: "The gym locker number is L-342.", Score: 0.3},
		},
		// A message that tells a story is no statement of a value.
		"a long message": {
			{ID: "2026-05-01T09:00-b", Text: "Maya: we went to the gym twice and my locker number changed to 12 because the old one broke, then we had lunch in town with Sam and Priya and walked home along the river in the rain for an hour.", Score: 0.7},
			{ID: "2026-01-01T09:00-a", Text: "The gym locker number is L-118.", Score: 0.7},
		},
	}
	for name, stmts := range cases {
		if order, by := recall.Supersede(q, stmts); order != nil || by != nil {
			t.Errorf("%s: order %v, superseded %v; want nothing changed", name, order, by)
		}
	}
}

// A change said in many ways, and a value changed three times: the newest
// leads and supersedes every older one, whatever order they came in.
func TestSupersedeChains(t *testing.T) {
	q := recall.NewQueryWords("what is the office door PIN?")
	stmts := []recall.Statement{
		{ID: "2026-01-05T10:30-a", Text: "The office door PIN is 2209.", Score: 0.9},
		{ID: "2026-03-23T09:00-b", Text: "Office door PIN changed to 7781.", Score: 0.8},
		{ID: "2026-06-01T09:10-c", Text: "Facilities reset the office door PIN: 4630.", Score: 0.7},
	}
	order, by := recall.Supersede(q, stmts)
	if want := []int{2, 0, 1}; !slices.Equal(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
	if by[0] != "2026-06-01T09:10-c" || by[1] != "2026-06-01T09:10-c" {
		t.Errorf("superseded %v: want both older ones by the newest", by)
	}
	// A name that moved, asked with a verb the change does not use.
	q = recall.NewQueryWords("where does Maya live?")
	stmts = []recall.Statement{
		{ID: "2026-01-05T19:00-a", Text: "Maya lives at 14 Orchard Row in Deptford.", Score: 1},
		{ID: "2026-03-22T11:30-b", Text: "Maya moved to 3 Calder Street in Leith last weekend.", Score: 0.3},
	}
	if order, by := recall.Supersede(q, stmts); !slices.Equal(order, []int{1, 0}) || by[0] != "2026-03-22T11:30-b" {
		t.Errorf("Maya: order %v, superseded %v", order, by)
	}
}

// BenchmarkSupersede is the cost Supersede adds to a context of 4,000
// tokens: some 300 evidence entries, the third of them holding query words.
func BenchmarkSupersede(b *testing.B) {
	q := recall.NewQueryWords("what is the garage door code these days?")
	var stmts []recall.Statement
	for i := range 300 {
		text := "Maya: we talked about the weekend, the weather and the new bakery on Mill Street, then about work for a while."
		if i%3 == 0 {
			text = "The garage door code was on my mind today; we changed the lock on the shed door to a new one, code 4417 too."
		}
		stmts = append(stmts, recall.Statement{ID: fmt.Sprintf("2026-%02d-%02dT09:%02d-x", 1+i%12, 1+i%28, i%60), Text: text, Score: 1 / float64(1+i%7)})
	}
	b.ReportAllocs()
	for b.Loop() {
		recall.Supersede(q, stmts)
	}
}
