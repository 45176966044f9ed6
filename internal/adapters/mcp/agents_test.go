package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestAgentsConfig starts the server as the mcpServers block of
// docs/agents.md says, the way Claude Desktop, Cursor and the other clients
// do, and reads the context resources and prompt through the SDK's client.
func TestAgentsConfig(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the daybook binary")
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "agents.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- mcp-servers -->\\s*```json\n(.*?)```\\s*<!-- /mcp-servers -->").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/agents.md has no ```json block between <!-- mcp-servers --> markers")
	}
	var cfg struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(m[1], &cfg); err != nil {
		t.Fatalf("docs/agents.md's mcpServers block: %v", err)
	}
	server, ok := cfg.MCPServers["daybook"]
	if !ok {
		t.Fatalf("docs/agents.md's mcpServers block has no daybook server: %s", m[1])
	}

	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin")
	build := exec.Command("go", "build", "-o", bin+string(filepath.Separator),
		"github.com/daybook/daybook/cmd/daybook", "github.com/daybook/daybook/cmd/daybook-core")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// The client's environment: daybook on its PATH, the default data dir.
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+tmp,
		"XDG_CONFIG_HOME="+tmp, "XDG_RUNTIME_DIR="+tmp, "XDG_DATA_HOME="+filepath.Join(tmp, "share"), "DAYBOOK_CONFIG=", "DAYBOOK_DIR=",
		// On the files: no daemon started, none left behind (the plugin's
		// test, cmd/daybook-core, runs the server with autostart on).
		"DAYBOOK_AUTOSTART=0")
	path, err := lookPath(server.Command, bin)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path, server.Args...)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	ctx := context.Background()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "agents-md", Version: "1"}, nil).
		Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("starting %s %v: %v\n%s", server.Command, server.Args, err, stderr.String())
	}
	defer cs.Close()
	if ins := cs.InitializeResult().Instructions; !strings.Contains(ins, "When to remember") {
		t.Errorf("instructions: %s", ins)
	}
	remember(t, cs, map[string]any{"text": "Chose Caddy over nginx for the home server #homelab", "kind": "decision", "at": "2025-03-04 09:00"})
	res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "daybook://context/2025-03"})
	if err != nil || !strings.Contains(res.Contents[0].Text, "Chose Caddy over nginx") {
		t.Fatalf("daybook://context/2025-03: %v %+v", err, res)
	}
	p, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "remember-context", Arguments: map[string]string{"query": "home server"}})
	if err != nil || !strings.Contains(p.Messages[0].Content.(*sdk.TextContent).Text, "Chose Caddy over nginx") {
		t.Fatalf("remember-context: %v %+v", err, p)
	}
}

// lookPath finds a client's "command" as its PATH (bin first) would.
func lookPath(command, bin string) (string, error) {
	if filepath.IsAbs(command) {
		return command, nil
	}
	if p := filepath.Join(bin, command); fileExists(p) {
		return p, nil
	}
	return exec.LookPath(command)
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}
