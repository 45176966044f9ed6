package mcp_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/adapters/mcp"
)

// TestCommandTransport runs the real binary as an MCP client starts it,
// "daybook mcp --dir DIR" with the protocol on its stdin and stdout, and
// talks to it with the SDK's client.
func TestCommandTransport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the daybook binary")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin", "daybook")
	build := exec.Command("go", "build", "-o", filepath.Dir(bin)+string(filepath.Separator), // the front and daybook-core beside it
		"github.com/daybook/daybook/cmd/daybook", "github.com/daybook/daybook/cmd/daybook-core")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := filepath.Join(tmp, "data")
	cmd := exec.Command(bin, "mcp", "--dir", dir)
	// Nothing of the machine's: no config, no daemon socket.
	cmd.Env = append(os.Environ(), "HOME="+tmp, "XDG_CONFIG_HOME="+tmp, "XDG_RUNTIME_DIR="+tmp,
		"XDG_DATA_HOME="+tmp, "DAYBOOK_CONFIG=", "DAYBOOK_DIR=", "DAYBOOK_SOCKET=",
		"DAYBOOK_AUTOSTART=0") // the files, no daemon started (docs/daemon.md)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr

	ctx := context.Background()
	start := time.Now()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).
		Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting: %v\nstderr: %s", err, stderr.String())
	}
	startup := time.Since(start)
	if info := cs.InitializeResult().ServerInfo; info.Name != "daybook" {
		t.Fatalf("server info %+v", info)
	}
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	for _, want := range []string{"browse", "expand", "find", "recall", "remember"} {
		if !slices.Contains(names, want) {
			t.Errorf("tool %s missing from %v", want, names)
		}
	}

	ids := remember(t, cs,
		map[string]any{"text": "Chose Caddy over nginx for the home server #homelab", "kind": "decision", "at": "2026-01-12 20:00"},
		map[string]any{"text": "Replaced the router's fan", "at": "2026-01-13 18:30"},
	)
	rec := call[daybook.RecallResponse](t, cs, "recall", map[string]any{"query": "caddy nginx"})
	if len(rec.Results) == 0 || rec.Results[0].ID != ids[0] {
		t.Fatalf("recall: %+v", rec.Results)
	}
	if exp, txt := expand(t, cs, map[string]any{"id": ids[1]}); exp.Entry == nil || !strings.Contains(txt, "Replaced the router's fan") {
		t.Fatalf("expand: %+v %s", exp, txt)
	}
	if f := call[daybook.FindResponse](t, cs, "find", map[string]any{"pattern": `fan$`}); len(f.Matches) != 1 || f.Matches[0].Line < 1 {
		t.Fatalf("find: %+v", f)
	}
	if br := call[daybook.BrowseResponse](t, cs, "browse", map[string]any{"level": "year"}); len(br.Summaries) != 0 {
		t.Fatalf("browse before any consolidation: %+v", br)
	}
	if msg := callErr(t, cs, "find", map[string]any{"pattern": "[a-"}); !strings.Contains(msg, "pattern") {
		t.Fatalf("bad regex: %q", msg)
	}

	// The round trip of a tool call through the process's pipes.
	const n = 200
	start = time.Now()
	for range n {
		call[mcp.ExpandOutput](t, cs, "expand", map[string]any{"id": ids[0]})
	}
	perCall := time.Since(start) / n
	start = time.Now()
	for range n / 10 {
		call[daybook.RecallResponse](t, cs, "recall", map[string]any{"query": "router fan"})
	}
	perRecall := time.Since(start) / (n / 10)
	t.Logf("startup and initialize %s; expand round trip %s; recall round trip %s", startup, perCall, perRecall)

	// Closing stdin ends the server cleanly.
	if err := cs.Close(); err != nil {
		t.Fatalf("closing: %v\nstderr: %s", err, stderr.String())
	}
	if !cmd.ProcessState.Success() {
		t.Fatalf("daybook mcp exited with %v\nstderr: %s", cmd.ProcessState, stderr.String())
	}
	if strings.Contains(stderr.String(), "level=ERROR") {
		t.Fatalf("errors logged:\n%s", stderr.String())
	}
}
