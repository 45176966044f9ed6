//go:build unix

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/daybook/daybook/internal/launch/launchtest"
)

// readmeSection returns the README's section that starts with heading.
func readmeSection(t *testing.T, heading string) string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(readme)
	i := strings.Index(s, heading+"\n")
	if i < 0 {
		t.Fatalf("README.md has no %q", heading)
	}
	s = s[i:]
	if end := strings.Index(s[1:], "\n## "); end > 0 {
		s = s[:end+1]
	}
	return s
}

// TestReadmeClaude runs the README's lines as a new user would on a fresh
// clone, with the real Claude Code CLI: the Start's "go install ./cmd/..."
// (into a GOBIN of the test's, put on the PATH as the README says), then the
// plugin lines and the MCP line of "Agents and chat". The plugin's
// marketplace is added from the clone, by the README's "claude plugin
// marketplace add ./" (the GitHub form, daybook/daybook, needs the network
// and names the same marketplace). Then "claude mcp list" must show both
// servers connected, and "claude plugin list" the plugin enabled.
func TestReadmeClaude(t *testing.T) {
	cli := needClaude(t)
	root, _ := filepath.Abs(repoRoot)
	home := t.TempDir()
	gobin := filepath.Join(home, "go", "bin")
	project := filepath.Join(home, "project")
	data := filepath.Join(home, "data")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	env := claudeEnv(home, gobin, data, "http://127.0.0.1:9")
	launchtest.Cleanup(t, data) // "claude mcp list" starts the servers, which start the daemon

	// Start: its first sh block, run in the clone.
	start := readmeSection(t, "## Start")
	block := regexp.MustCompile("(?s)```sh\n(.*?)```").FindStringSubmatch(start)
	if block == nil || !strings.HasPrefix(block[1], "go install ./cmd/...\n") {
		t.Fatalf("README's Start does not begin with go install ./cmd/...:\n%s", start)
	}
	install := exec.Command("go", "install", "./cmd/...")
	install.Dir, install.Env = root, append(os.Environ(), "GOBIN="+gobin)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install ./cmd/...: %v\n%s", err, out)
	}
	for _, b := range []string{"daybook", "daybook-core"} {
		if _, err := os.Stat(filepath.Join(gobin, b)); err != nil {
			t.Fatalf("go install ./cmd/... did not install %s", b)
		}
	}
	if !strings.Contains(block[1], "\nexport PATH=\"$PATH:$(go env GOPATH)/bin\"\n") {
		t.Fatalf("README's Start does not say how to put go install's folder on the PATH")
	}

	agents := readmeSection(t, "## Agents and chat")
	var lines []string
	for _, m := range regexp.MustCompile("(?m)^ *(claude .*)$|`(claude [^`]*)`").FindAllStringSubmatch(agents, -1) {
		lines = append(lines, m[1]+m[2])
	}
	want := []string{"claude plugin marketplace add daybook/daybook", "claude plugin install daybook@daybook",
		"claude plugin marketplace add ./", "claude mcp add daybook -- daybook mcp"}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("README's Agents and chat gives the claude lines:\n%s\nthe test runs:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	var market struct{ Name string }
	b, _ := os.ReadFile(filepath.Join(root, ".claude-plugin", "marketplace.json"))
	if err := json.Unmarshal(b, &market); err != nil || market.Name != "daybook" {
		t.Fatalf("marketplace.json: %v, name %q; the README installs daybook@daybook", err, market.Name)
	}
	claude := func(dir, line string) string {
		return runIn(t, dir, env, "", cli, strings.Fields(line)[1:]...)
	}
	claude(root, "claude plugin marketplace add ./")
	claude(home, "claude plugin install daybook@daybook")
	claude(project, "claude mcp add daybook -- daybook mcp")

	list := claude(project, "claude mcp list")
	for _, server := range []string{"plugin:daybook:daybook", "daybook: daybook mcp"} {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(server) + `.* - ✔ Connected$`).MatchString(list) {
			t.Errorf("claude mcp list does not show %s connected:\n%s", server, list)
		}
	}
	plugins := claude(home, "claude plugin list")
	if !regexp.MustCompile(`daybook@daybook(?s:.*?)Status: ✔ enabled`).MatchString(plugins) {
		t.Errorf("claude plugin list does not show daybook@daybook enabled:\n%s", plugins)
	}
}
