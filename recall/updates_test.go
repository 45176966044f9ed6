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

// The current statement of a subject may rank past the list (a busy day
// whose summary does not name it): read Outside, it comes in at the best
// place its subject holds in the list, the captured question's, and the
// member it pushes past the list's end takes its place. The old note past
// the list stays there, and so does an outside statement of no subject of
// the list.
func TestSupersedeOutside(t *testing.T) {
	cc := []string{"claude-code", "session-fbb212ec"}
	stmts := []recall.Statement{
		{ID: "2025-07-25T12:16-q", Text: "User: Which swimming lesson slot do we have? #claude-code #session-fbb212ec", Tags: cc, Score: 7},
		{ID: "2026-05-03T10:00-a", Text: "Sort out the swimming lessons.", Score: 1.9},
		{ID: "2025-07-25T12:46-e", Text: "Assistant: The swimming lesson slot is Tuesday 17:30 (from your note of 19 February). #claude-code #session-fbb212ec", Tags: cc, Score: 4.4},
		{ID: "2026-04-05T10:00-b", Text: "Call Omar about the swimming lessons.", Score: 1.7},
		{ID: "2025-07-21T18:46-c", Text: "Changed the swimming lesson slot to Thursday 16:45.", Score: 5, Outside: true},
		{ID: "2025-02-19T21:07-o", Text: "Our swimming lesson slot is Tuesday 17:30.", Score: 5.3, Outside: true},
		{ID: "2025-03-01T09:00-x", Text: "The parking slot at work is now B14.", Score: 1, Outside: true},
	}
	order, by := recall.Supersede(recall.NewQueryWords("Which swimming lesson slot do we have?"), stmts)
	if want := []int{4, 1, 0, 3, 2, 5, 6}; !slices.Equal(order, want) {
		t.Errorf("order %v, want %v: the change first, the question after the others, the echo past the list", order, want)
	}
	if by[2] != "2025-07-21T18:46-c" || by[5] != "2025-07-21T18:46-c" || len(by) != 2 {
		t.Errorf("superseded %v: want the echo (2) and the old note (5) by the change", by)
	}
	// Nothing of the subject in the list: the list stays as it is.
	list := []recall.Statement{
		{ID: "2026-05-03T10:00-a", Text: "Sort out the swimming lessons.", Score: 1.9},
		stmts[4], stmts[5],
	}
	if order, _ := recall.Supersede(recall.NewQueryWords("Which swimming lesson slot do we have?"), list); order != nil && order[0] != 0 {
		t.Errorf("order %v: an outside change took a place of the list without a member of its subject there", order)
	}
}

// A chat message past the list that shares one word of a short query and
// says "new" does not come in: inside the list one word is a subject, from
// past it too little (REALTALK: "I can get a new roommate").
func TestSupersedeOutsideNeedsTwoWords(t *testing.T) {
	stmts := []recall.Statement{
		{ID: "2023-12-31T10:00-q", Text: "Nicolas: You need a roommate?", Score: 3},
		{ID: "2024-01-14T10:00-a", Text: "Nebraas: You know what he would work perfectly with my roommate because she's a pick me", Score: 1.2},
		{ID: "2024-01-17T10:01-n", Text: "Nebraas: Then of they decide to live together Julio will be out of your way and I can get a new roommate", Score: 1.1, Outside: true},
	}
	order, _ := recall.Supersede(recall.NewQueryWords("Does Nebraas have a roommate like Nicolas` roommate?"), stmts)
	if len(order) > 0 && (order[0] != 0 || order[1] != 1) {
		t.Errorf("order %v: a one-word subject came in from past the list", order)
	}
}

// A note past the list that states other numbers without a word of change
// neither comes in nor takes the chain of a change in the list.
func TestSupersedeOutsideNeedsAChange(t *testing.T) {
	cc := []string{"claude-code", "session-0c44d2f8"}
	stmts := []recall.Statement{
		{ID: "2026-01-20T09:40-q", Text: "User: when is team standup?", Tags: cc, Score: 4.2},
		{ID: "2025-10-06T09:05-c", Text: "Team standup moved to 10:00 from next week.", Score: 2.6},
		{ID: "2024-09-16T09:00-o", Text: "Team standup is at 9:15.", Score: 2.5},
		{ID: "2026-02-05T20:32-n", Text: "Decided to rewrite the standup format into the monolith because the team agreed in the retro. Numbers: memory use 288 MB before, 135 MB after.", Score: 1.7, Outside: true},
	}
	order, by := recall.Supersede(recall.NewQueryWords("when is team standup?"), stmts)
	if len(order) < 3 || order[0] != 1 || by[2] != "2025-10-06T09:05-c" {
		t.Errorf("order %v, superseded %v: want the move to 10:00 first, superseding 9:15", order, by)
	}
}

// "a new GP": an acronym after "new" is no name ("New York"), and a
// one-word query's subject changed.
func TestSupersedeNewAcronym(t *testing.T) {
	stmts := []recall.Statement{
		{ID: "2024-03-12T17:45-o", Text: "Our GP is Dr Moreau at Elm Lane Surgery. #health", Tags: []string{"health"}, Score: 4.4},
		{ID: "2025-04-22T09:30-c", Text: "We registered with a new GP: Dr Okonjo at Riverside Practice. #health", Tags: []string{"health"}, Score: 4.1},
	}
	order, by := recall.Supersede(recall.NewQueryWords("who is our GP?"), stmts)
	if !slices.Equal(order, []int{1, 0}) || by[0] != "2025-04-22T09:30-c" {
		t.Errorf("order %v, superseded %v: want the new GP first", order, by)
	}
}

// A question joins the subject that holds the most of its words: the
// climbing gym membership number, not two newer notes that share
// "climbing gym" and "numbers" and state other numbers.
func TestSupersedeQuestionJoinsTheWidestSubject(t *testing.T) {
	cc := []string{"claude-code", "session-931e303f"}
	stmts := []recall.Statement{
		{ID: "2025-06-23T08:51-q", Text: "User: What is the climbing gym membership number?", Tags: cc, Score: 6.8},
		{ID: "2025-04-28T17:00-c", Text: "Updated the climbing gym membership number to CG-65217.", Score: 5.3},
		{ID: "2024-03-05T13:07-o", Text: "Noted the climbing gym membership number: CG-77120.", Score: 5.3},
		{ID: "2024-02-25T12:00-a", Text: "Lunch with Anna at the climbing gym. Numbers: p95 latency 162ms before, 400ms after.", Score: 1.7},
		{ID: "2025-06-21T19:00-n", Text: "Dinner with Nadia at the climbing gym. Numbers: build time 68s before, 326s after.", Score: 1.7},
	}
	order, by := recall.Supersede(recall.NewQueryWords("What is the climbing gym membership number?"), stmts)
	if len(order) == 0 || order[0] != 1 {
		t.Errorf("order %v: want the membership number's change (1) first", order)
	}
	if by[2] != "2025-04-28T17:00-c" {
		t.Errorf("superseded %v: want the old membership number (2) by its change", by)
	}
}

// A change said as a handover: "handed the billing squad to Tobias".
func TestSupersedeHandover(t *testing.T) {
	stmts := []recall.Statement{
		{ID: "2026-01-19T11:00-o", Text: "Priyanka is the team lead of the billing squad. #work", Tags: []string{"work"}, Score: 4.1},
		{ID: "2026-06-15T09:00-c", Text: "Priyanka handed the billing squad to Tobias, who is the team lead from July. #work", Tags: []string{"work"}, Score: 3.2},
	}
	order, by := recall.Supersede(recall.NewQueryWords("who is the team lead of the billing squad?"), stmts)
	if !slices.Equal(order, []int{1, 0}) || by[0] != "2026-06-15T09:00-c" {
		t.Errorf("order %v, superseded %v: want the handover first and the old lead superseded", order, by)
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
