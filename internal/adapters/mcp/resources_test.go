package mcp_test

import (
	"context"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/adapters/mcp"
	"github.com/daybook/daybook/internal/app/apptest"
)

// TestContextResources reads the context block as resources and a prompt
// through the SDK's client, and the server's instructions.
func TestContextResources(t *testing.T) {
	a := apptest.New(t, t.TempDir(), apptest.At(now))
	ctx := context.Background()
	for _, r := range []daybook.RememberRequest{
		{Text: "Chose Argon2 over bcrypt for the password store #auth", Kind: "decision", At: "2025-03-04 09:14"},
		{Text: "Met Dana Reyes about the launch", At: "2025-06-01 10:00"},
		{Text: "Replaced the fan of the router", At: "2026-03-09 18:00"},
	} {
		if _, err := a.Remember(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	cs := connect(t, a, mcp.Options{})
	init := cs.InitializeResult()
	if !strings.Contains(init.Instructions, "When to recall") || !strings.Contains(init.Instructions, "When to remember") {
		t.Errorf("instructions do not say when to recall and remember:\n%s", init.Instructions)
	}
	if init.Capabilities.Resources == nil || init.Capabilities.Prompts == nil {
		t.Errorf("capabilities lack resources or prompts: %+v", init.Capabilities)
	}

	list, err := cs.ListResources(ctx, nil)
	if err != nil || len(list.Resources) != 1 || list.Resources[0].URI != "daybook://context" {
		t.Fatalf("resources/list: %v %+v", err, list)
	}
	tl, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(tl.ResourceTemplates) != 1 || tl.ResourceTemplates[0].URITemplate != "daybook://context/{period}" {
		t.Fatalf("resources/templates/list: %v %+v", err, tl)
	}
	read := func(uri string) string {
		t.Helper()
		res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("read %s: %v", uri, err)
		}
		if len(res.Contents) != 1 || res.Contents[0].MIMEType != "text/markdown" || res.Contents[0].URI != uri {
			t.Fatalf("read %s: %+v", uri, res.Contents)
		}
		return res.Contents[0].Text
	}
	if got := read("daybook://context"); !strings.HasPrefix(got, "# daybook context · 2026-03-10") || !strings.Contains(got, "Replaced the fan") {
		t.Errorf("daybook://context:\n%s", got)
	}
	month := read("daybook://context/2025-03")
	if !strings.Contains(month, "Query: 2025-03\n") || !strings.Contains(month, "Argon2") {
		t.Errorf("daybook://context/2025-03 is not led by March 2025:\n%s", month)
	}
	for _, bad := range []string{"daybook://context/2025-13", "daybook://context/last-march", "daybook://context/2025-02-30"} {
		if _, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: bad}); err == nil || !strings.Contains(err.Error(), "period") {
			t.Errorf("read %s: err %v, want one about the period", bad, err)
		}
	}

	pl, err := cs.ListPrompts(ctx, nil)
	if err != nil || len(pl.Prompts) != 1 || pl.Prompts[0].Name != "remember-context" || pl.Prompts[0].Arguments[0].Name != "query" {
		t.Fatalf("prompts/list: %v %+v", err, pl)
	}
	p, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "remember-context", Arguments: map[string]string{"query": "password hashing"}})
	if err != nil {
		t.Fatal(err)
	}
	text := p.Messages[0].Content.(*sdk.TextContent).Text
	if p.Messages[0].Role != "user" || !strings.Contains(text, "holds about: password hashing") || !strings.Contains(text, "Argon2") {
		t.Errorf("remember-context: %s\n%s", p.Messages[0].Role, text)
	}

	// Claude Code passes "/mcp__daybook__remember-context what did we
	// choose for password hashing" as one word an argument, in the order
	// declared: the whole query arrives.
	words := strings.Fields("what did we choose for password hashing")
	args := map[string]string{}
	for i, w := range words {
		args[pl.Prompts[0].Arguments[i].Name] = w
	}
	p, err = cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "remember-context", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	text = p.Messages[0].Content.(*sdk.TextContent).Text
	if !strings.Contains(text, "holds about: what did we choose for password hashing.") || !strings.Contains(text, "Argon2") {
		t.Errorf("remember-context with the query's words one an argument:\n%s", text)
	}
}
