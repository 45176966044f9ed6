package mcp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daybook/daybook/internal/adapters/mcp"
	"github.com/daybook/daybook/internal/app/apptest"
	"github.com/daybook/daybook/internal/redact/redacttest"
)

// The remember tool, over a real MCP session on a real App, stores none of
// the redactor's corpus of secrets.
func TestRememberToolStoresNoSecret(t *testing.T) {
	dir := t.TempDir()
	a := apptest.New(t, dir, apptest.At(now))
	cs := connect(t, a, mcp.Options{})
	for _, c := range redacttest.Secrets {
		remember(t, cs, map[string]any{"text": c[0], "at": "2026-02-03 09:14"})
	}
	day, err := os.ReadFile(filepath.Join(dir, "days", "2026", "02", "03.md"))
	if err != nil {
		t.Fatal(err)
	}
	stored := 0
	for _, c := range redacttest.Secrets {
		if strings.Contains(string(day), c[1]) {
			stored++
			t.Errorf("the day file holds %q", c[1])
		}
	}
	t.Logf("%d secret shapes remembered over MCP, %d stored", len(redacttest.Secrets), stored)
}
