package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestFrontLinksLittle lists what the front links: no markdown parser,
// YAML or cron parser, file watcher or search index, nor the packages of
// daybook that bring them (the day files, the App, the config file's
// reader), so that it starts about as fast as a Go hello-world. A command
// that needs them runs in daybook-core.
func TestFrontLinksLittle(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	banned := []string{"goldmark", "yaml", "cron", "fsnotify", "bleve",
		"github.com/daybook/daybook/dayfiles\n", "github.com/daybook/daybook/internal/app",
		"github.com/daybook/daybook/internal/config/configfile", "github.com/daybook/daybook/index"}
	deps := string(out)
	for _, b := range banned {
		for _, d := range strings.Split(deps, "\n") {
			if strings.Contains(d+"\n", b) {
				t.Errorf("the front links %s (matching %q): run go list -deps ./cmd/daybook and cut the import that brings it", d, strings.TrimSpace(b))
			}
		}
	}
	t.Logf("the front links %d packages", strings.Count(deps, "\n"))
}
