package app_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/app/apptest"
	"github.com/daybook/daybook/internal/daybooktest"
)

// A changed fact whose two statements sit on busy days, written among
// errands, while three months of days are about the subject's words and
// a captured session asked the question and echoed the old value: after
// consolidation the context block leads with the current value, and
// recall ranks its statement first.
func TestContextLeadsWithAChangeOnABusyDay(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	var es []dayfiles.NewEntry
	add := func(day string, texts ...string) {
		d := date.MustParse(day)
		for i, s := range texts {
			es = append(es, dayfiles.NewEntry{At: d.At(8+i/60, i%60, time.UTC), Text: s})
		}
	}
	busy := func(day, fact string) {
		texts := []string{fact}
		chores := []string{
			"Fixed the boiler pressure with Dan; the boiler needs a new valve.",
			"Reviewed the deploy pipeline for the billing service with Priya.",
			"Groceries for the week: oat milk, rice, apples and coffee.",
			"Called the bank about the mortgage renewal and the boiler loan.",
			"Billing service deploy failed twice; Priya rolled the pipeline back.",
		}
		for i := range 30 {
			texts = append(texts, chores[i%len(chores)])
		}
		add(day, texts...)
	}
	for _, m := range []string{"2025-04", "2025-05", "2025-06"} {
		for i := 1; i <= 12; i++ {
			add(fmt.Sprintf("%s-%02d", m, i), "Took Sam to the swimming lesson.", "Swimming lessons: Mia swam a length.", "Long walk by the river.", "Booked a parking slot at the leisure centre.")
		}
	}
	busy("2025-02-19", "Our swimming lesson slot is Tuesday 17:30.")
	busy("2025-07-21", "Changed the swimming lesson slot to Thursday 16:45.")
	add("2025-07-25",
		"User: Which swimming lesson slot do we have? #claude-code #session-fbb212ec",
		"Assistant: The swimming lesson slot is Tuesday 17:30 (from your note of 19 February). #claude-code #session-fbb212ec")
	if _, err := daybooktest.AppendMany(dir, time.UTC, es); err != nil {
		t.Fatal(err)
	}
	a := apptest.New(t, dir, apptest.At(time.Date(2025, 8, 10, 12, 0, 0, 0, time.UTC)))
	if _, err := a.Consolidate(ctx, daybook.ConsolidateRequest{}); err != nil {
		t.Fatal(err)
	}
	const q = "Which swimming lesson slot do we have?"
	rr, err := a.Recall(ctx, daybook.RecallRequest{Query: q})
	if err != nil {
		t.Fatal(err)
	}
	if len(rr.Results) == 0 || !strings.Contains(rr.Results[0].Snippet, "Thursday 16:45") {
		var got []string
		for _, r := range rr.Results {
			got = append(got, r.Snippet)
		}
		t.Errorf("recall (%s) leads with %q, want the change to Thursday 16:45", rr.Method.Start, got)
	}
	for _, budget := range []int{400, 1000} {
		cr, err := a.Context(ctx, daybook.ContextRequest{Query: q, Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		first := ""
		for _, l := range strings.Split(cr.Markdown, "\n") {
			if !strings.HasPrefix(l, "Query:") && (strings.Contains(l, "17:30") || strings.Contains(l, "16:45")) {
				first = l
				break
			}
		}
		if !strings.Contains(first, "Thursday 16:45") {
			t.Errorf("the block of %d tokens leads with %q:\n%s", budget, first, cr.Markdown)
		}
	}
}
