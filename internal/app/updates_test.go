package app_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/app/apptest"
	"github.com/daybook/daybook/internal/assemble"
)

// A changed fact through the App, before and after consolidation (the
// linear scan, then the drill over a real index): recall ranks the change
// first and marks the March note and the agent's echo superseded by it;
// the context block's first line that names a code names 5521, and every
// line with 4417 says it was superseded, naming the change's id.
func TestContextLeadsWithTheNewestValue(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := apptest.New(t, dir, apptest.At(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)))
	cc := []string{"claude-code", "session-1a2b3c4d"}
	var change string
	for _, r := range []daybook.RememberRequest{
		{At: "2026-03-02T09:10:00Z", Text: "The garage door code is 4417."},
		{At: "2026-03-02T09:30:00Z", Text: "Bought new tyres for the car."},
		{At: "2026-06-14T18:05:00Z", Text: "Changed the garage door code to 5521 after the break-in."},
		{At: "2026-09-20T10:00:00Z", Text: "User: what is the garage door code?", Tags: cc},
		{At: "2026-09-20T10:01:00Z", Text: "Assistant: The garage door code is 4417 (from your note of 2 March).", Tags: cc},
	} {
		resp, err := a.Remember(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(r.Text, "Changed") {
			change = resp.ID
		}
	}
	check := func(when string) {
		t.Helper()
		rr, err := a.Recall(ctx, daybook.RecallRequest{Query: "what is the garage door code?"})
		if err != nil {
			t.Fatal(err)
		}
		if len(rr.Results) < 4 || rr.Results[0].ID != change {
			t.Fatalf("%s: recall %+v: want the change %s first", when, rr.Results, change)
		}
		superseded := 0
		for _, r := range rr.Results {
			if r.Level == "entry" && strings.Contains(r.Snippet, "4417") {
				if r.SupersededBy != change {
					t.Errorf("%s: %s (%s) is not superseded by %s", when, r.ID, r.Snippet, change)
				}
				superseded++
			}
		}
		if superseded != 2 {
			t.Errorf("%s: %d results with 4417, want the note and the echo", when, superseded)
		}
		cr, err := a.Context(ctx, daybook.ContextRequest{Query: "what is the garage door code?", Budget: 400})
		if err != nil {
			t.Fatal(err)
		}
		first := ""
		for _, l := range strings.Split(cr.Markdown, "\n") {
			if strings.HasPrefix(l, "Query:") || !strings.Contains(l, "4417") && !strings.Contains(l, "5521") {
				continue
			}
			if first == "" {
				first = l
			}
			if strings.Contains(l, "4417") && !strings.Contains(l, "(superseded by ["+change+"])") {
				t.Errorf("%s: a line of the old value is not marked: %q", when, l)
			}
		}
		if !strings.Contains(first, "5521") || !strings.Contains(cr.Markdown, "Changed facts:") {
			t.Errorf("%s: the block leads with %q:\n%s", when, first, cr.Markdown)
		}
		// The marked lines still read back as their entries.
		for id, text := range assemble.ParseEntries(cr.Markdown) {
			if strings.Contains(text, "superseded") {
				t.Errorf("%s: %s reads back as %q", when, id, text)
			}
		}
	}
	check("linear")
	if _, err := a.Consolidate(ctx, daybook.ConsolidateRequest{}); err != nil {
		t.Fatal(err)
	}
	check("drill")
}
