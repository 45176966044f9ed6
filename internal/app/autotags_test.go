package app_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook"
)

// The automatic tags label and filter: a query that shares no word with a
// captured turn but the "code" of its #claude-code finds none of them
// (issue 35), in recall and in the context block; the tag's own words
// still find the turns that say them.
func TestAutoTagsAreNotWords(t *testing.T) {
	ctx := context.Background()
	a := newApp(t, t.TempDir())
	tags := []string{"claude-code", "session-1a2b3c4d", "project-web"}
	for i := range 12 {
		text := fmt.Sprintf("User: rename the parser's helper number %d", i)
		if i%2 == 1 {
			text = fmt.Sprintf("Assistant: renamed helper %d and ran the tests", i)
		}
		if _, err := a.Remember(ctx, daybook.RememberRequest{Text: text, Tags: tags, At: fmt.Sprintf("2026-01-05 10:%02d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	note, err := a.Remember(ctx, daybook.RememberRequest{Text: "The wifi password at home is heron-77", Kind: "fact", At: "2026-01-04 09:00"})
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"", "bm25", "linear"} {
		resp, err := a.Recall(ctx, daybook.RecallRequest{Query: "what is the wifi code?", Mode: mode, Level: "entry"})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Results) == 0 || resp.Results[0].ID != note.ID {
			t.Errorf("mode %q: the wifi note is not first: %+v", mode, resp.Results)
		}
		for _, r := range resp.Results {
			if strings.Contains(r.Snippet, "claude-code") {
				t.Errorf("mode %q: a captured turn matched only through its tag: %s", mode, r.Snippet)
			}
		}
		resp, err = a.Recall(ctx, daybook.RecallRequest{Query: "claude code session", Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Results) != 0 {
			t.Errorf("mode %q: the automatic tags' words found %d results: %+v", mode, len(resp.Results), resp.Results)
		}
	}
	c, err := a.Context(ctx, daybook.ContextRequest{Query: "what is the wifi code?", Budget: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.Markdown, "heron-77") {
		t.Errorf("the block lacks the wifi note:\n%s", c.Markdown)
	}
	for _, it := range c.Items {
		if it.Part == "evidence" && it.ID != note.ID {
			t.Errorf("evidence %s is not the wifi note:\n%s", it.ID, c.Markdown)
		}
	}
}

// A busy agent does not crowd the person's recent entries out of the
// block: each captured session gives its last two turns, after them.
func TestCapturedTurnsDoNotCrowdRecent(t *testing.T) {
	ctx := context.Background()
	a := newAppAt(t, t.TempDir(), time.Date(2026, 1, 6, 12, 0, 0, 0, time.UTC))
	var mine []string
	for i := range 5 {
		r, err := a.Remember(ctx, daybook.RememberRequest{Text: fmt.Sprintf("Person's own note number %d about the allotment", i), At: fmt.Sprintf("2026-01-05 08:%02d", i)})
		if err != nil {
			t.Fatal(err)
		}
		mine = append(mine, r.ID)
	}
	var lines strings.Builder
	for i := range 200 {
		tags := []string{"claude-code", fmt.Sprintf("session-%08d", i/20), "project-web"}
		fmt.Fprintf(&lines, `{"at":"2026-01-05T%02d:%02d:00Z","text":"Assistant: refactored the webhook retry queue, step %d","tags":["%s"]}`+"\n",
			9+i/60, i%60, i, strings.Join(tags, `","`))
	}
	if _, err := a.Import(ctx, strings.NewReader(lines.String()), daybook.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	c, err := a.Context(ctx, daybook.ContextRequest{Budget: 1000})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range mine {
		if !strings.Contains(c.Markdown, id) {
			t.Errorf("the person's entry %s is not in the block:\n%s", id, c.Markdown)
		}
	}
	if n := strings.Count(c.Markdown, "webhook retry queue"); n > 2*10 {
		t.Errorf("%d captured turns in the block, want at most two a session:\n%s", n, c.Markdown)
	}
}

// Among near-equals, the person's note outranks an agent's captured turn
// that says as much: a captured turn weighs a little less as evidence of
// its day (recall capturedNearEqual).
func TestPersonsNoteOutranksCapturedTurn(t *testing.T) {
	ctx := context.Background()
	a := newApp(t, t.TempDir())
	if _, err := a.Remember(ctx, daybook.RememberRequest{Text: "Assistant: the heron nest is by the north pond",
		Tags: []string{"claude-code", "session-0000aaaa"}, At: "2026-01-06 10:00"}); err != nil {
		t.Fatal(err)
	}
	note, err := a.Remember(ctx, daybook.RememberRequest{Text: "Saw the heron nest by the north pond", At: "2026-01-02 10:00"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Consolidate(ctx, daybook.ConsolidateRequest{}); err != nil { // the drill starts at the summaries
		t.Fatal(err)
	}
	resp, err := a.Recall(ctx, daybook.RecallRequest{Query: "where is the heron nest?"})
	if err != nil || len(resp.Results) < 2 || resp.Results[0].ID != note.ID {
		t.Errorf("the person's note is not first: %v %+v", err, resp.Results)
	}
}

// A summary in the block names the person's topics, not the labels of a
// busy agent's sessions: #claude-code, #session-… and #project-… are the
// most frequent tags of such a day, and they took the Topics line of every
// day summary in the block (the captured-traffic eval lost evidence at
// 4,000 tokens to them).
func TestSummaryTopicsLeaveOutTheLoopsLabels(t *testing.T) {
	ctx := context.Background()
	a := newAppAt(t, t.TempDir(), time.Date(2026, 1, 20, 12, 0, 0, 0, time.UTC))
	for i := range 3 {
		if _, err := a.Remember(ctx, daybook.RememberRequest{Text: fmt.Sprintf("Planted the broad beans in bed %d #allotment", i), At: fmt.Sprintf("2026-01-05 08:%02d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	var lines strings.Builder
	for i := range 60 {
		tags := []string{"claude-code", fmt.Sprintf("session-%08d", i/10), fmt.Sprintf("project-web%d", i/20)}
		fmt.Fprintf(&lines, `{"at":"2026-01-05T%02d:%02d:00Z","text":"Assistant: refactored the webhook retry queue, step %d","tags":["%s"]}`+"\n",
			9+i/60, i%60, i, strings.Join(tags, `","`))
	}
	if _, err := a.Import(ctx, strings.NewReader(lines.String()), daybook.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Consolidate(ctx, daybook.ConsolidateRequest{}); err != nil {
		t.Fatal(err)
	}
	c, err := a.Context(ctx, daybook.ContextRequest{Query: "when did I plant the broad beans?", Budget: 2000})
	if err != nil {
		t.Fatal(err)
	}
	topics := 0
	for _, l := range strings.Split(c.Markdown, "\n") {
		if !strings.HasPrefix(l, "Topics: ") {
			continue
		}
		topics++
		if strings.Contains(l, "#claude-code") || strings.Contains(l, "#session-") || strings.Contains(l, "#project-") {
			t.Errorf("a summary's topics name the loop's labels: %s", l)
		}
		if !strings.Contains(l, "#allotment") {
			t.Errorf("a summary's topics lack the person's #allotment: %s", l)
		}
	}
	if topics == 0 {
		t.Errorf("no summary with topics in the block:\n%s", c.Markdown)
	}
}
