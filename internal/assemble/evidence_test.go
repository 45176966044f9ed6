package assemble_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/assemble"
)

// The old day's exchange: a question that matches the query, the answer
// after it that shares none of its words, and a remark after that.
const (
	asked   = "Dana: Did you book the ferry to Lisbon for the conference?"
	answer  = "Lee: Yes, last Friday, the early one at seven."
	remark  = "Dana: Perfect, see you on board then."
	unasked = "Lee: The garden needs rain."

	lateAsk   = "Dana: Did the plumber ever fix the boiler?"
	lateReply = "Lee: Tuesday, finally, after three visits."
)

// evidenceApp returns an App on a data dir of real day files, consolidated
// and indexed: a conversation about many things on days of March 2025
// (one of them the exchange above) and sixty entries of today, 2026-03-10,
// none of them about the ferry.
func evidenceApp(t *testing.T) *app.App {
	t.Helper()
	var lines []daybook.ImportLine
	topics := []string{"the garden", "the new bike", "a recipe for bread", "the football match", "a film about whales", "the neighbour's dog"}
	for d := 1; d <= 20; d++ {
		for i, topic := range topics {
			lines = append(lines, daybook.ImportLine{At: fmt.Sprintf("2025-03-%02dT%02d:%02d:00", d, 9+i, d),
				Text: fmt.Sprintf("Dana: On day %d we talked about %s for a while, nothing more.", d, topic)})
		}
	}
	for i, text := range []string{asked, answer, remark, unasked} {
		lines = append(lines, daybook.ImportLine{At: fmt.Sprintf("2025-03-14T20:%02d:00", 10+i), Text: text})
	}
	// A chat past midnight: the reply is in the next day's file.
	lines = append(lines,
		daybook.ImportLine{At: "2025-03-18T23:58:00", Text: lateAsk},
		daybook.ImportLine{At: "2025-03-19T00:02:00", Text: lateReply})
	for i := range 60 {
		lines = append(lines, daybook.ImportLine{At: fmt.Sprintf("2026-03-10T%02d:%02d:00", 8+i/10, i%10*5),
			Text: fmt.Sprintf("Kim: Today's note number %d about the quarterly report and its charts.", i)})
	}
	return importedApp(t, lines)
}

// texts returns the entries a block holds, by text.
func texts(markdown string) map[string]string {
	out := map[string]string{}
	for id, text := range assemble.ParseEntries(markdown) {
		out[text] = id
	}
	return out
}

// A question about an old day gets, in a 1,000-token block, the entry that
// matches it and the answer after it (which shares no word with the
// question), cited by id and path:line, and none of today's entries.
func TestEvidenceAndItsReplyLeadTheBlock(t *testing.T) {
	a := evidenceApp(t)
	resp, err := a.Context(context.Background(), daybook.ContextRequest{Query: "Was the ferry to Lisbon booked?", Budget: 1000})
	if err != nil {
		t.Fatal(err)
	}
	got := texts(resp.Markdown)
	for _, want := range []string{asked, answer} {
		if _, ok := got[want]; !ok {
			t.Errorf("the block has no %q:\n%s", want, resp.Markdown)
		}
	}
	for text := range got {
		if strings.Contains(text, "Today's note") {
			t.Fatalf("the block holds today's entry %q though the query is about an old day:\n%s", text, resp.Markdown)
		}
	}
	if resp.Tokens > 1000 {
		t.Errorf("%d tokens for a budget of 1000", resp.Tokens)
	}
	// Cited by path:line under the heading of its day and file; the line
	// id expands to the entry, as does the entry's id in the items.
	id := got[answer]
	_, ev, ok := strings.Cut(resp.Markdown, "## Evidence\n\n")
	if !ok || !strings.Contains(ev, "### 2025-03-14 · days/2025/03/14.md\n") {
		t.Fatalf("no evidence part of day 2025-03-14:\n%s", resp.Markdown)
	}
	x, err := a.Expand(context.Background(), daybook.ExpandRequest{ID: id})
	if err != nil || x.Entry == nil || x.Entry.Text != answer {
		t.Fatalf("expand %s: %+v, %v", id, x.Entry, err)
	}
	if line := fmt.Sprintf("- :%d 20:11 %s\n", x.Entry.Line, answer); !strings.Contains(ev, line) {
		t.Errorf("the answer is not cited as %q:\n%s", line, resp.Markdown)
	}
	if !slices.ContainsFunc(resp.Items, func(it daybook.ContextItem) bool { return it.ID == x.Entry.ID && it.Part == "evidence" }) {
		t.Errorf("the items do not list the answer's entry id %s as evidence: %+v", x.Entry.ID, resp.Items)
	}
	var parts []string
	for _, it := range resp.Items {
		if len(parts) == 0 || parts[len(parts)-1] != it.Part {
			parts = append(parts, it.Part)
		}
	}
	if len(parts) == 0 || parts[0] != "evidence" {
		t.Errorf("the items' parts run %v: want the evidence first", parts)
	}

	// The reply to a message just before midnight is in the next day's file.
	resp, err = a.Context(context.Background(), daybook.ContextRequest{Query: "Was the boiler fixed by the plumber?", Budget: 1000})
	if err != nil {
		t.Fatal(err)
	}
	got = texts(resp.Markdown)
	for _, want := range []string{lateAsk, lateReply} {
		if _, ok := got[want]; !ok {
			t.Errorf("the block has no %q:\n%s", want, resp.Markdown)
		}
	}
	if !strings.Contains(resp.Markdown, "\n### 2025-03-19 · days/2025/03/19.md\n") {
		t.Errorf("the next day's reply is not under its own day:\n%s", resp.Markdown)
	}

	// A query with no words of its own (only a date) and one that recalls
	// nothing keep the block of no query: the latest entries, no evidence.
	for _, q := range []string{"", "March 2025", "what about the zeppelin?"} {
		resp, err := a.Context(context.Background(), daybook.ContextRequest{Query: q, Budget: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(resp.Markdown, "## Evidence") {
			t.Errorf("%q: an evidence part:\n%s", q, resp.Markdown)
		}
		if _, ok := texts(resp.Markdown)["Kim: Today's note number 59 about the quarterly report and its charts."]; !ok {
			t.Errorf("%q: the newest entry is not in the block:\n%s", q, resp.Markdown)
		}
	}
}
