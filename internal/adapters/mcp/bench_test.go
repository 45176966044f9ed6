package mcp_test

import (
	"context"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/daybook/daybook/internal/adapters/mcp"
	"github.com/daybook/daybook/internal/app/apptest"
)

// BenchmarkToolCall measures a tool call's round trip over an in-memory
// transport on a real App: JSON-RPC, schema validation of the arguments and
// the output, and the operation on the files.
func BenchmarkToolCall(b *testing.B) {
	a := apptest.New(b, b.TempDir(), apptest.At(now))
	cs := connect(b, a, mcp.Options{})
	ids := remember(b, cs,
		map[string]any{"text": "Chose Caddy over nginx for the home server #homelab", "kind": "decision", "at": "2026-01-12 20:00"},
		map[string]any{"text": "Replaced the router's fan", "at": "2026-01-12 21:00"},
	)
	for _, bc := range []struct {
		name string
		tool string
		args map[string]any
	}{
		{"expand", "expand", map[string]any{"id": ids[0]}},
		{"recall", "recall", map[string]any{"query": "router fan"}},
		{"find", "find", map[string]any{"pattern": "(?i)caddy"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			ctx := context.Background()
			for b.Loop() {
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: bc.tool, Arguments: bc.args})
				if err != nil || res.IsError {
					b.Fatalf("%s: %v %v", bc.tool, err, res)
				}
			}
		})
	}
}
