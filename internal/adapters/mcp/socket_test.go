package mcp_test

import (
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/adapters/mcp"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/app/apptest"
)

// TestThroughTheSocket serves the tools over the daemon's socket client, as
// "daybook mcp" does when a daemon runs: the same answers, and the daemon's
// refusals are tool errors with the App's words.
func TestThroughTheSocket(t *testing.T) {
	a := apptest.New(t, t.TempDir(), apptest.At(now))
	sockDir, err := os.MkdirTemp("", "dbmcp") // socket paths are short
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sockDir) })
	socket := filepath.Join(sockDir, "api.sock")
	ln, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: api.NewServer(a, api.ServerOptions{IsUserError: app.IsUserError})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	client := api.NewClient(socket)
	t.Cleanup(func() { client.Close() })

	cs := connect(t, client, mcp.Options{})
	ids := remember(t, cs, map[string]any{"text": "Moved the compost bin behind the shed", "at": "2026-02-10 08:00"})
	rec := call[daybook.RecallResponse](t, cs, "recall", map[string]any{"query": "compost bin"})
	if len(rec.Results) == 0 || rec.Results[0].ID != ids[0] {
		t.Fatalf("recall over the socket: %+v", rec.Results)
	}
	exp, txt := expand(t, cs, map[string]any{"id": ids[0]})
	if exp.Entry == nil || !strings.Contains(txt, "Moved the compost bin behind the shed") {
		t.Fatalf("expand over the socket: %+v", exp)
	}
	if msg := callErr(t, cs, "expand", map[string]any{"id": "day:2026-02-11"}); !strings.Contains(msg, "days/2026/02/11.md") {
		t.Fatalf("unknown day over the socket: %q", msg)
	}
	if br := call[daybook.BrowseResponse](t, cs, "browse", map[string]any{"level": "day"}); len(br.Summaries) != 0 {
		t.Fatalf("browse before consolidation: %+v", br)
	}
}
