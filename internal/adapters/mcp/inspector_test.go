package mcp_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// inspectorPath returns the official MCP Inspector's binary: $INSPECTOR, or
// where .ci/install-inspector puts it; "" when it is not installed.
func inspectorPath() string {
	if p := os.Getenv("INSPECTOR"); p != "" {
		return p
	}
	cache := os.Getenv("DAYBOOK_CI_CACHE")
	if cache == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		cache = filepath.Join(home, ".cache", "daybook-ci")
	}
	p := filepath.Join(cache, "inspector", "node_modules", ".bin", "mcp-inspector")
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// TestInspectorCLI drives every tool, with good and bad arguments, through
// the official MCP Inspector's CLI: a client whose parsing of schemas
// daybook's own tests do not decide (it sends tags=["a","b"] as a list only
// when the schema's type is plainly "array"). The checks are
// docs/mcp-inspector.sh, which a person can run too.
func TestInspectorCLI(t *testing.T) {
	insp := inspectorPath()
	if insp == "" {
		t.Skip("skipping: the MCP Inspector is not installed (run .ci/install-inspector, which needs npm, or set INSPECTOR)")
	}
	if testing.Short() {
		t.Skip("skipping the Inspector in -short mode: it builds daybook and starts Node per call")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "daybook")
	if out, err := exec.Command("go", "build", "-o", tmp+string(filepath.Separator), // the front and daybook-core beside it
		"github.com/daybook/daybook/cmd/daybook", "github.com/daybook/daybook/cmd/daybook-core").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command("bash", filepath.Join("..", "..", "..", "docs", "mcp-inspector.sh"), bin)
	cmd.Env = append(os.Environ(), "INSPECTOR="+insp)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("docs/mcp-inspector.sh: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "checks passed") {
		t.Fatalf("docs/mcp-inspector.sh said:\n%s", out)
	}
	t.Logf("%s", out)
}
