package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/adapters/mcp"
	"github.com/daybook/daybook/internal/app/apptest"
	"github.com/daybook/daybook/internal/assemble"
	"github.com/daybook/daybook/internal/daybooktest"
)

// budgetCorpus writes 60 days before now of four long entries each and
// consolidates them, and returns a client session to it.
func budgetCorpus(t *testing.T) *sdk.ClientSession {
	t.Helper()
	dir := t.TempDir()
	a := apptest.New(t, dir, apptest.At(now))
	var es []dayfiles.NewEntry
	first := date.Of(now).AddDays(-60)
	for d := range 60 {
		day := first.AddDays(d)
		for h := range 4 {
			es = append(es, dayfiles.NewEntry{At: day.At(9+h, 0, time.UTC), Text: fmt.Sprintf(
				"Worked on part %d of the storage migration with the platform team; we moved the invoices, "+
					"checked the backups and wrote down what is left for day %d of the plan. #migration", h, d)})
		}
	}
	if _, err := daybooktest.AppendMany(dir, time.UTC, es); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Consolidate(context.Background(), daybook.ConsolidateRequest{}); err != nil {
		t.Fatal(err)
	}
	return connect(t, a, mcp.Options{})
}

// callText calls a tool and returns its text content, what a model reads,
// and its structured content as JSON.
func callText(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) (string, []byte) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil || res.IsError {
		t.Fatalf("%s %v: %v %s", name, args, err, text(res))
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	return text(res), data
}

// TestBrowseFitsItsBudget: the default day listing fits the default
// budget, says how many older summaries it left out and how to list them,
// and listing them with next_to goes on where it stopped, until the end.
func TestBrowseFitsItsBudget(t *testing.T) {
	cs := budgetCorpus(t)
	for _, budget := range []int{0, 1000, 300} {
		args := map[string]any{"level": "day", "limit": 1000}
		if budget > 0 {
			args["budget_tokens"] = budget
		}
		want := budget
		if want == 0 {
			want = mcp.DefaultBrowseBudget
		}
		var seen []string
		for pages := 0; ; pages++ {
			if pages > 100 {
				t.Fatal("paging does not end")
			}
			txt, _ := callText(t, cs, "browse", args)
			if n := assemble.Tokens(txt); n > want {
				t.Errorf("browse %v: %d tokens, over the budget of %d", args, n, want)
			}
			var out mcp.BrowseOutput
			if err := json.Unmarshal([]byte(txt), &out); err != nil {
				t.Fatal(err)
			}
			if len(out.Summaries) == 0 {
				t.Fatalf("browse %v: no summary fits: %s", args, txt)
			}
			for _, s := range out.Summaries {
				seen = append(seen, s.Period)
			}
			if out.LeftOut == 0 {
				break
			}
			if out.NextTo == "" || !strings.Contains(out.Note, "to="+out.NextTo) || !strings.Contains(out.Note, fmt.Sprint(out.LeftOut)) {
				t.Fatalf("browse %v: left out %d, next_to %q, note %q", args, out.LeftOut, out.NextTo, out.Note)
			}
			args["to"] = out.NextTo
		}
		if len(seen) != 60 {
			t.Fatalf("budget %d: the pages list %d days, want 60", budget, len(seen))
		}
		for i := 1; i < len(seen); i++ {
			if seen[i] >= seen[i-1] {
				t.Fatalf("budget %d: %s after %s: not newest first, or twice", budget, seen[i], seen[i-1])
			}
		}
	}
}

// TestContextTextFitsItsBudget: the text a model reads of the context
// tool is the markdown block, within the budget asked for, and the
// structured content does not repeat it.
func TestContextTextFitsItsBudget(t *testing.T) {
	cs := budgetCorpus(t)
	for _, budget := range []int{4000, 1000, 200} {
		txt, data := callText(t, cs, "context", map[string]any{"query": "storage migration", "budget_tokens": budget})
		if n := assemble.Tokens(txt); n > budget {
			t.Errorf("context at %d tokens: the text is %d tokens (%d characters)", budget, n, len(txt))
		}
		if !strings.HasPrefix(txt, "# daybook context") {
			t.Errorf("context at %d: the text is not the markdown block: %.100s", budget, txt)
		}
		var out mcp.ContextOutput
		if err := json.Unmarshal(data, &out); err != nil {
			t.Fatal(err)
		}
		if len(out.Items) == 0 || out.Budget != budget || out.Tokens > budget {
			t.Errorf("context at %d: %+v", budget, out)
		}
		if strings.Contains(string(data), "# daybook context") {
			t.Errorf("context at %d: the structured content repeats the markdown", budget)
		}
	}
}

// TestIntegerArgumentsHaveRanges: every integer argument's range is in
// its schema, as minimum and maximum, and a value past it is refused.
func TestIntegerArgumentsHaveRanges(t *testing.T) {
	a := apptest.New(t, t.TempDir(), apptest.At(now))
	cs := connect(t, a, mcp.Options{})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, tool := range res.Tools {
		props, _ := schemaOf(t, res.Tools, tool.Name)["properties"].(map[string]any)
		for name, p := range props {
			p := p.(map[string]any)
			if p["type"] != "integer" {
				continue
			}
			n++
			lo, okLo := p["minimum"].(float64)
			hi, okHi := p["maximum"].(float64)
			if !okLo || !okHi || lo != 0 || hi < 1 {
				t.Errorf("%s.%s: minimum %v maximum %v, want 0 (the default) and the most it takes", tool.Name, name, p["minimum"], p["maximum"])
				continue
			}
			args := map[string]any{name: int(hi) + 1, "query": "x", "id": "day:2026-01-01", "level": "day", "pattern": "x"}
			for k := range args {
				if _, ok := props[k]; !ok {
					delete(args, k)
				}
			}
			if msg := callErr(t, cs, tool.Name, args); !strings.Contains(msg, name+": ") || !strings.Contains(msg, "out of range") {
				t.Errorf("%s.%s = %d: %s", tool.Name, name, int(hi)+1, msg)
			}
		}
	}
	if n < 7 {
		t.Errorf("%d integer arguments, want the 7 of recall, expand, find, browse and context", n)
	}
}

// TestExpandCutsALongLine: one line longer than the budget is cut to it,
// with a marker, and the page fits the budget.
func TestExpandCutsALongLine(t *testing.T) {
	a := apptest.New(t, t.TempDir(), apptest.At(now))
	cs := connect(t, a, mcp.Options{})
	long := strings.Repeat("The retrospective went over the storage migration in detail once more. ", 40)
	ids := remember(t, cs, map[string]any{"text": long, "at": "2026-02-03 09:00"})
	for id, from := range map[string]int{ids[0]: 1, "day:2026-02-03": 3} { // the day's line 3 is the entry
		_, txt := expand(t, cs, map[string]any{"id": id, "budget_tokens": 300, "from_line": from})
		if n := assemble.Tokens(txt); n > 300 {
			t.Errorf("expand %s at 300 tokens: %d tokens (%d characters)", id, n, len(txt))
		}
		if !strings.Contains(txt, "line cut to fit budget_tokens 300") {
			t.Errorf("expand %s: no cut marker:\n%s", id, txt)
		}
	}
	// A budget that holds it shows it whole.
	if _, txt := expand(t, cs, map[string]any{"id": ids[0], "budget_tokens": 2000}); !strings.Contains(txt, strings.TrimSpace(long)) || strings.Contains(txt, "line cut") {
		t.Errorf("expand at 2000 tokens does not show the line whole:\n%.300s", txt)
	}
}
