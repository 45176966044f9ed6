package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/adapters/mcp"
	"github.com/daybook/daybook/internal/app/apptest"
)

// schemaOf returns the input schema of tool as a client sees it: JSON.
func schemaOf(t *testing.T, tools []*sdk.Tool, name string) map[string]any {
	t.Helper()
	for _, tool := range tools {
		if tool.Name == name {
			data, err := json.Marshal(tool.InputSchema)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			return m
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}

func prop(t *testing.T, schema map[string]any, name string) map[string]any {
	t.Helper()
	props, _ := schema["properties"].(map[string]any)
	p, ok := props[name].(map[string]any)
	if !ok {
		t.Fatalf("no property %s in %v", name, schema)
	}
	return p
}

// The shapes the official Inspector (and every client) parses: one type
// per property, never ["null","array"]; the allowed values of kind and
// level as enums; and hints that tell reads from the one write.
func TestToolSchemasArePlainWithEnumsAndHints(t *testing.T) {
	a := apptest.New(t, t.TempDir(), apptest.At(now))
	cs := connect(t, a, mcp.Options{})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		schema := schemaOf(t, res.Tools, tool.Name)
		props, _ := schema["properties"].(map[string]any)
		for name, p := range props {
			if _, ok := p.(map[string]any)["type"].(string); !ok {
				t.Errorf("%s.%s: type %v, want one plain type", tool.Name, name, p.(map[string]any)["type"])
			}
		}
		if schema["additionalProperties"] != false {
			t.Errorf("%s: additionalProperties %v, want false", tool.Name, schema["additionalProperties"])
		}
		an := tool.Annotations
		if an == nil {
			t.Errorf("%s: no annotations", tool.Name)
			continue
		}
		if tool.Name == "remember" {
			if an.ReadOnlyHint || an.DestructiveHint == nil || *an.DestructiveHint || an.IdempotentHint {
				t.Errorf("remember: annotations %+v, want not read-only, not destructive, not idempotent", an)
			}
		} else if !an.ReadOnlyHint {
			t.Errorf("%s: readOnlyHint false, want true", tool.Name)
		}
	}
	tags := prop(t, schemaOf(t, res.Tools, "remember"), "tags")
	if tags["type"] != "array" || tags["items"].(map[string]any)["type"] != "string" {
		t.Errorf("remember.tags = %v, want a plain array of strings", tags)
	}
	for _, c := range []struct {
		tool, arg string
		want      []string
	}{
		{"remember", "kind", []string{"fact", "decision", "note", "todo", "event"}},
		{"recall", "level", []string{"year", "month", "day", "entry", "line"}},
		{"browse", "level", []string{"day", "month", "year"}},
	} {
		var got []string
		for _, v := range prop(t, schemaOf(t, res.Tools, c.tool), c.arg)["enum"].([]any) {
			got = append(got, v.(string))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s.%s enum = %v, want %v", c.tool, c.arg, got, c.want)
		}
	}
}

// Clients that send every argument as a string (a number as "5", a list
// as its JSON) are understood.
func TestArgumentsSentAsStrings(t *testing.T) {
	a := apptest.New(t, t.TempDir(), apptest.At(now))
	cs := connect(t, a, mcp.Options{})
	ids := remember(t, cs, map[string]any{"text": "Pruned the apple tree", "at": "2026-01-05 09:00", "tags": `["garden","trees"]`})
	exp, _ := expand(t, cs, map[string]any{"id": ids[0]})
	if !slices.Equal(exp.Entry.Tags, []string{"garden", "trees"}) {
		t.Fatalf("tags sent as a JSON string: %+v", exp.Entry)
	}
	rec := call[daybook.RecallResponse](t, cs, "recall", map[string]any{"query": "apple tree", "limit": "5"})
	if len(rec.Results) == 0 {
		t.Fatal("recall with limit \"5\" found nothing")
	}
}

// A long month comes in pages that fit the budget, which together are the
// whole text, once.
func TestExpandPagesWithinTheBudget(t *testing.T) {
	ctx := context.Background()
	a := apptest.New(t, t.TempDir(), apptest.At(now))
	cs := connect(t, a, mcp.Options{})
	var entries []map[string]any
	for d := 1; d <= 28; d++ {
		for h := 8; h < 14; h++ {
			entries = append(entries, map[string]any{"kind": "decision",
				"text": "Decided to rotate the backup disks and to keep the offsite copy in the attic safe, as discussed",
				"at":   "2026-02-" + two(d) + " " + two(h) + ":00"})
		}
	}
	remember(t, cs, entries...)
	if _, err := a.Consolidate(ctx, daybook.ConsolidateRequest{}); err != nil {
		t.Fatal(err)
	}
	first, txt := expand(t, cs, map[string]any{"id": "month:2026-02"})
	if first.NextFromLine == 0 || first.FromLine != 1 || first.ToLine >= first.TotalLines {
		t.Fatalf("the default budget does not page a month of %d decisions: %+v", len(entries), first)
	}
	if tokens := len(txt) / 4; tokens > mcp.DefaultExpandBudget+200 {
		t.Errorf("first page is ~%d tokens, over the default budget %d", tokens, mcp.DefaultExpandBudget)
	}
	if !strings.Contains(txt, "from_line "+itoa(first.NextFromLine)) {
		t.Errorf("the page does not say how to read on:\n%s", txt[len(txt)-300:])
	}
	// Read on with a small budget until the end; the lines join up.
	seen := first.ToLine
	next := first.NextFromLine
	for pages := 0; next != 0; pages++ {
		if pages > 500 {
			t.Fatal("paging does not end")
		}
		page, _ := expand(t, cs, map[string]any{"id": "month:2026-02", "from_line": next, "budget_tokens": 300})
		if page.FromLine != seen+1 || page.ToLine < page.FromLine {
			t.Fatalf("page %+v does not follow line %d", page, seen)
		}
		seen, next = page.ToLine, page.NextFromLine
	}
	if seen != first.TotalLines {
		t.Fatalf("pages end at line %d of %d", seen, first.TotalLines)
	}
}

func two(n int) string { return fmt.Sprintf("%02d", n) }

func itoa(n int) string { return strconv.Itoa(n) }
