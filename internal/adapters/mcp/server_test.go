package mcp_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/adapters/mcp"
	"github.com/daybook/daybook/internal/app/apptest"
)

// wantTools lists the tools every server has.
func wantTools(daybook.Service) []string {
	return []string{"browse", "context", "expand", "find", "recall", "remember", "stats"}
}

func TestListTools(t *testing.T) {
	a := apptest.New(t, t.TempDir(), apptest.At(now))
	cs := connect(t, a, mcp.Options{})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if tool.Description == "" || tool.InputSchema == nil || tool.OutputSchema == nil {
			t.Errorf("tool %s lacks a description or a schema", tool.Name)
		}
	}
	slices.Sort(names)
	t.Logf("tools: %v", names)
	if want := wantTools(a); !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
	if inst := cs.InitializeResult().Instructions; !strings.Contains(inst, "recall") {
		t.Errorf("instructions do not mention recall: %q", inst)
	}
}

// TestEveryTool calls each tool on a real App over a real MCP session.
func TestEveryTool(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := apptest.New(t, dir, apptest.At(now))
	cs := connect(t, a, mcp.Options{})
	ids := remember(t, cs,
		map[string]any{"text": "Chose Argon2id over bcrypt for the vault #auth", "kind": "decision", "at": "2026-02-03 09:14"},
		map[string]any{"text": "Lunch with Maria about the garden plan", "at": "2026-02-03 12:30", "tags": []string{"garden"}},
		map[string]any{"text": "Planted tomatoes along the south fence #garden", "kind": "event", "at": "2026-02-04 08:00"},
	)
	if _, err := a.Consolidate(ctx, daybook.ConsolidateRequest{}); err != nil {
		t.Fatal(err)
	}

	rec := call[daybook.RecallResponse](t, cs, "recall", map[string]any{"query": "argon2id vault", "limit": 5})
	if !slices.ContainsFunc(rec.Results, func(r daybook.RecallResult) bool { return r.Period >= "2026-02" }) || len(rec.Results) == 0 {
		t.Fatalf("recall found nothing from February: %+v", rec)
	}

	exp, txt := expand(t, cs, map[string]any{"id": ids[0]})
	if exp.Level != "entry" || exp.Entry == nil || exp.Entry.Kind != "decision" ||
		!strings.Contains(txt, "\n- 09:14 [decision] Chose Argon2id over bcrypt for the vault #auth\n") {
		t.Fatalf("expand %s: %+v\n%s", ids[0], exp, txt)
	}

	day, txt := expand(t, cs, map[string]any{"id": "day:2026-02-03"})
	if !slices.Equal(day.Related[:2], ids[:2]) || day.SummaryPath != "summaries/2026/02/03.md" ||
		!strings.Contains(txt, "Lunch with Maria") || !strings.Contains(txt, "## Daily summary (summaries/2026/02/03.md)") {
		t.Fatalf("expand day: %+v\n%s", day, txt)
	}
	month, txt := expand(t, cs, map[string]any{"id": "month:2026-02"})
	if !slices.Equal(month.Related, []string{"day:2026-02-03", "day:2026-02-04"}) || month.TotalLines == 0 {
		t.Fatalf("expand month: %+v\n%s", month, txt)
	}
	// The summary's machine front matter (digests, counts) is left out.
	if strings.Contains(txt, "digest:") || strings.Contains(txt, "\n---\n") {
		t.Errorf("expand month sends the front matter:\n%s", txt)
	}
	// An open year says why it has no summary.
	year, txt := expand(t, cs, map[string]any{"id": "year:2026"})
	if !slices.Equal(year.Related, []string{"month:2026-02"}) || !year.Open || !strings.Contains(txt, "still open") {
		t.Fatalf("expand year 2026 (open, so not summarized): %+v\n%s", year, txt)
	}

	found := call[daybook.FindResponse](t, cs, "find", map[string]any{"pattern": `(?i)tomato(es)?\b`})
	if len(found.Matches) != 1 || found.Matches[0].Path != "days/2026/02/04.md" {
		t.Fatalf("find: %+v", found)
	}

	br := call[daybook.BrowseResponse](t, cs, "browse", map[string]any{"level": "day"})
	if len(br.Summaries) != 2 || br.Summaries[0].ID != "day:2026-02-04" || br.Summaries[1].ID != "day:2026-02-03" {
		t.Fatalf("browse day, newest first: %+v", br)
	}
	for _, s := range br.Summaries {
		if s.Prose == "" || s.Summarizer == "" || s.Stale || s.HandEdited || s.Error != "" {
			t.Errorf("browse: %+v", s)
		}
	}
	if br := call[daybook.BrowseResponse](t, cs, "browse", map[string]any{"level": "month", "from": "2026-03-01"}); len(br.Summaries) != 0 {
		t.Fatalf("browse month from March: %+v", br)
	}

	if slices.Contains(wantTools(a), "context") {
		c := call[daybook.ContextResponse](t, cs, "context", map[string]any{"query": "garden", "budget_tokens": 2000})
		if c.Tokens > c.Budget {
			t.Fatalf("context over its budget: %+v", c)
		}
	}
	if slices.Contains(wantTools(a), "stats") {
		s := call[daybook.StatsResponse](t, cs, "stats", nil)
		if s.Entries != 3 || s.Days != 2 {
			t.Fatalf("stats: %+v", s)
		}
	}
}

// TestBrowseFlags edits a summary by hand and a day file after its summary
// was written: browse marks the one hand-edited and the other stale.
func TestBrowseFlags(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := apptest.New(t, dir, apptest.At(now))
	cs := connect(t, a, mcp.Options{})
	remember(t, cs,
		map[string]any{"text": "Fixed the bike chain", "at": "2026-01-10 10:00"},
		map[string]any{"text": "Read about sourdough starters", "at": "2026-01-11 21:00"},
	)
	if _, err := a.Consolidate(ctx, daybook.ConsolidateRequest{}); err != nil {
		t.Fatal(err)
	}
	edited := filepath.Join(dir, "summaries", "2026", "01", "10.md")
	data, err := os.ReadFile(edited)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(edited, append(data, "\nMy own note on this day.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	remember(t, cs, map[string]any{"text": "Fed the starter again", "at": "2026-01-11 22:00"})

	br := call[daybook.BrowseResponse](t, cs, "browse", map[string]any{"level": "day", "to": "2026-01-31"})
	flags := map[string][2]bool{}
	for _, s := range br.Summaries {
		flags[s.ID] = [2]bool{s.Stale, s.HandEdited}
	}
	want := map[string][2]bool{"day:2026-01-10": {false, true}, "day:2026-01-11": {true, false}}
	if len(flags) != 2 || flags["day:2026-01-10"] != want["day:2026-01-10"] || flags["day:2026-01-11"] != want["day:2026-01-11"] {
		t.Fatalf("browse flags [stale, hand-edited] = %v, want %v", flags, want)
	}
}

// TestBadArguments checks that every wrong argument comes back as a tool
// error naming it, and that the server answers the next call.
func TestBadArguments(t *testing.T) {
	a := apptest.New(t, t.TempDir(), apptest.At(now))
	cs := connect(t, a, mcp.Options{})
	ids := remember(t, cs, map[string]any{"text": "Called the plumber", "at": "2026-01-05 09:00"})
	cases := []struct {
		tool string
		args map[string]any
		want []string // all in the message
	}{
		{"recall", map[string]any{"query": ""}, []string{"query", "empty"}},
		{"recall", map[string]any{"query": "   "}, []string{"query", "empty"}},
		{"recall", map[string]any{}, []string{"query"}},
		{"recall", map[string]any{"query": "x", "from": "last tuesdayish"}, []string{"from", `"last tuesdayish"`}},
		{"recall", map[string]any{"query": "x", "to": "2026-13-01"}, []string{"to", "2026-13-01"}},
		{"recall", map[string]any{"query": "x", "from": "2026-03-01", "to": "2026-01-01"}, []string{"from", `"2026-03-01" is after to "2026-01-01"`}},
		{"recall", map[string]any{"query": "x", "level": "week"}, []string{"level", `"week"`}},
		{"recall", map[string]any{"query": "x", "limit": -1}, []string{"limit: -1 is out of range: want 1 to 1000"}},
		{"recall", map[string]any{"query": "x", "limit": 1000000}, []string{"limit: 1000000 is out of range: want 1 to 1000"}},
		{"recall", map[string]any{"query": "x", "limit": "ten"}, []string{`limit: "ten" is not a whole number`}},
		{"recall", map[string]any{"query": "x", "limit": "abc"}, []string{`limit: "abc" is not a whole number`}},
		{"recall", map[string]any{"query": "x", "limit": 2.5}, []string{"limit: 2.5 is not a whole number"}},
		{"recall", map[string]any{"query": 7}, []string{"query: 7 is not a string"}},
		{"remember", map[string]any{"text": "x", "tags": "garden"}, []string{"tags", "not a list"}},
		{"expand", map[string]any{"id": "day:2026-01-05", "budget_tokens": -5}, []string{"budget_tokens: -5 is out of range"}},
		{"expand", map[string]any{"id": "day:2026-01-05", "from_line": 99}, []string{"from_line: 99 is past the end"}},
		{"recall", map[string]any{"query": "x", "bogus": 1}, []string{"bogus"}},
		{"remember", map[string]any{"text": ""}, []string{"text", "empty"}},
		{"remember", map[string]any{"text": "x", "kind": "rumour"}, []string{"kind", `"rumour"`}},
		{"remember", map[string]any{"text": "x", "at": "25:99"}, []string{"at", `"25:99"`}},
		{"remember", map[string]any{"text": "x", "at": "9999-12-31 10:00"}, []string{"at: date outside the accepted window: 9999-12-31"}},
		{"remember", map[string]any{"text": "x", "tags": []string{"#"}}, []string{"tags"}},
		{"remember", map[string]any{"text": "x", "tags": []string{"9lives"}}, []string{"tags", `"9lives"`}},
		{"expand", map[string]any{"id": ""}, []string{"id", "empty"}},
		{"expand", map[string]any{"id": "nonsense"}, []string{`id: "nonsense" is not an entry id`}},
		{"expand", map[string]any{"id": "month:2026-13"}, []string{`id: "month:2026-13"`}},
		{"expand", map[string]any{"id": "day:2026-01-06"}, []string{`id: "day:2026-01-06"`, "days/2026/01/06.md"}},
		{"expand", map[string]any{"id": "year:1999"}, []string{`id: "year:1999"`}},
		{"expand", map[string]any{"id": "2026-01-05T09:00-000000000000"}, []string{"id: no entry", "2026-01-05T09:00-000000000000", "days/2026/01/05.md"}},
		{"expand", map[string]any{"id": "2026-01-05:L99"}, []string{`id: "2026-01-05:L99"`, "lines"}},
		{"find", map[string]any{"pattern": "("}, []string{"pattern", "regex", "missing closing )"}},
		{"find", map[string]any{"pattern": ""}, []string{"pattern", "empty"}},
		{"find", map[string]any{"pattern": "x", "limit": -1}, []string{"limit", "-1"}},
		{"find", map[string]any{"pattern": "x", "from": "someday"}, []string{"from", `"someday"`}},
		{"browse", map[string]any{"level": "week"}, []string{"level", `"week"`, "day, month or year"}},
		{"browse", map[string]any{"level": ""}, []string{"level", "empty"}},
		{"browse", map[string]any{"level": "day", "limit": -1}, []string{"limit", "-1"}},
		{"browse", map[string]any{"level": "day", "to": "soon"}, []string{"to", `"soon"`}},
	}
	for _, c := range cases {
		msg := callErr(t, cs, c.tool, c.args)
		t.Logf("%s %v → %s", c.tool, c.args, msg)
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s %v: error %q does not say %q", c.tool, c.args, msg, w)
			}
		}
		// No Go internals: a reflect value, a Go type, the schema's path.
		for _, internal := range []string{"reflect", "validating", "Go value", "json:", "/properties/"} {
			if strings.Contains(msg, internal) {
				t.Errorf("%s %v: error %q shows Go internals (%q)", c.tool, c.args, msg, internal)
			}
		}
	}
	// Still serving, and nothing was written by the refused calls.
	exp, _ := expand(t, cs, map[string]any{"id": "day:2026-01-05"})
	if !slices.Equal(exp.Related, ids) {
		t.Fatalf("day after refused calls: %+v", exp)
	}
}

// TestRememberRecallExpand is the agent's round trip: what it remembers it
// recalls by words, and expand gives it back exactly.
func TestRememberRecallExpand(t *testing.T) {
	a := apptest.New(t, t.TempDir(), apptest.At(now))
	cs := connect(t, a, mcp.Options{})
	remember(t, cs,
		map[string]any{"text": "Renewed the car insurance with Lakeside", "at": "2026-02-20 10:00"},
		map[string]any{"text": "Booked the dentist for April", "kind": "todo", "at": "2026-02-21 11:00"},
	)
	ids := remember(t, cs, map[string]any{
		"text": "Decided to move the backups to the NAS in the attic\n\nkeeping the offsite copy monthly",
		"kind": "decision", "tags": []string{"backups", "nas"},
	})
	rec := call[daybook.RecallResponse](t, cs, "recall", map[string]any{"query": "where do the backups go"})
	i := slices.IndexFunc(rec.Results, func(r daybook.RecallResult) bool { return r.ID == ids[0] })
	if i < 0 {
		t.Fatalf("recall does not return the remembered entry %s: %+v", ids[0], rec.Results)
	}
	exp, txt := expand(t, cs, map[string]any{"id": rec.Results[i].ID})
	if exp.Entry == nil || exp.Entry.Kind != "decision" || !slices.Equal(exp.Entry.Tags, []string{"backups", "nas"}) {
		t.Fatalf("expand gives back %+v", exp.Entry)
	}
	if want := "\n- 12:00 [decision] Decided to move the backups to the NAS in the attic #backups #nas\n\n  keeping the offsite copy monthly\n"; !strings.Contains(txt, want) {
		t.Fatalf("expand text %q, want the lines as written %q", txt, want)
	}
	if exp.Path != rec.Results[i].Path || exp.Entry.Line != rec.Results[i].Line || exp.Entry.EndLine != exp.Entry.Line+2 {
		t.Fatalf("expand %s:%d-%d, recall said %s:%d", exp.Path, exp.Entry.Line, exp.Entry.EndLine, rec.Results[i].Path, rec.Results[i].Line)
	}
}

// TestToolPanicIsAToolError checks that a failing backend cannot take the
// server down.
func TestToolPanicIsAToolError(t *testing.T) {
	a := apptest.New(t, t.TempDir(), apptest.At(now))
	cs := connect(t, panicky{a}, mcp.Options{})
	if msg := callErr(t, cs, "expand", map[string]any{"id": "day:2026-01-01"}); !strings.Contains(msg, "internal error") {
		t.Fatalf("panic became %q", msg)
	}
	if res, err := cs.ListTools(context.Background(), nil); err != nil || len(res.Tools) < 5 {
		t.Fatalf("server gone after a panic: %v", err)
	}
}

// panicky is an App whose Expand panics, as a bug would.
type panicky struct{ daybook.Service }

func (panicky) Expand(context.Context, daybook.ExpandRequest) (daybook.ExpandResponse, error) {
	var m map[string]int
	//lint:ignore SA5000 the panic is the point: a bug in a tool must not take the server down
	m["boom"]++
	return daybook.ExpandResponse{}, nil
}
