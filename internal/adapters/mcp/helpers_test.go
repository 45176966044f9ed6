package mcp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/adapters/mcp"
)

// now is the tests' clock: every day file they write is in the past of it,
// so that consolidation summarizes them.
var now = time.Date(2026, time.March, 10, 12, 0, 0, 0, time.UTC)

// connect serves b over an in-memory transport and returns a client
// session to it.
func connect(t testing.TB, b daybook.Service, opts mcp.Options) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := mcp.NewServer(b, opts).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// call calls a tool and decodes its structured output into out; a tool
// error fails the test.
func call[Out any](t testing.TB, cs *sdk.ClientSession, name string, args map[string]any) Out {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: protocol error: %v", name, args, err)
	}
	if res.IsError {
		t.Fatalf("%s %v: tool error: %s", name, args, text(res))
	}
	var out Out
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("%s: decoding %s: %v", name, data, err)
	}
	// The text content is the same JSON, for clients that read only text;
	// expand's is its page of text and context's its markdown block, sent
	// once.
	if got := text(res); name != "expand" && name != "context" && !json.Valid([]byte(got)) {
		t.Fatalf("%s: text content is not the JSON output: %.200s", name, got)
	}
	return out
}

// callErr calls a tool that must fail and returns its error message.
func callErr(t testing.TB, cs *sdk.ClientSession, name string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: want a tool error, got a protocol error: %v", name, args, err)
	}
	if !res.IsError {
		t.Fatalf("%s %v: want a tool error, got %s", name, args, text(res))
	}
	return text(res)
}

func text(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// remember writes entries through the tool and returns their ids.
func remember(t testing.TB, cs *sdk.ClientSession, entries ...map[string]any) []string {
	t.Helper()
	var ids []string
	for _, e := range entries {
		ids = append(ids, call[daybook.RememberResponse](t, cs, "remember", e).ID)
	}
	return ids
}

// expand calls the expand tool and returns its output and its text
// content, checking that the text is not sent a second time inside the
// structured content.
func expand(t testing.TB, cs *sdk.ClientSession, args map[string]any) (mcp.ExpandOutput, string) {
	t.Helper()
	out := call[mcp.ExpandOutput](t, cs, "expand", args)
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "expand", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(res.StructuredContent)
	var fields map[string]any
	if err := json.Unmarshal(data, &fields); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"text", "summary"} {
		if _, ok := fields[k]; ok {
			t.Errorf("expand %v: the structured content repeats the %s", args, k)
		}
	}
	return out, text(res)
}
