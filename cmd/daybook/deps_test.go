package main

import (
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// TestFrontLinksLittle lists what the front links: no markdown parser,
// YAML or cron parser, file watcher or search index, nor the packages of
// daybook that bring them (the day files, the App, the config file's
// reader), nor net/http and net, so that it is static and starts about as
// fast as a Go hello-world. A command that needs them runs in daybook-core.
func TestFrontLinksLittle(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	banned := []string{"goldmark", "yaml", "cron", "fsnotify", "github.com/blevesearch/bleve",
		"github.com/daybook/daybook/dayfiles\n", "github.com/daybook/daybook/internal/app",
		"github.com/daybook/daybook/internal/config/configfile", "github.com/daybook/daybook/index"}
	if runtime.GOOS != "windows" { // where apiclient dials with the net package
		// net/http and net: the net package links the C library on a
		// machine with a C compiler, and the front would not be static.
		banned = append(banned, "\nnet/http\n", "\nnet\n")
	}
	deps := "\n" + string(out)
	for _, b := range banned {
		for _, d := range strings.Split(deps, "\n") {
			if strings.Contains("\n"+d+"\n", b) {
				t.Errorf("the front links %s (matching %q): run go list -deps ./cmd/daybook and cut the import that brings it", d, strings.TrimSpace(b))
			}
		}
	}
	t.Logf("the front links %d packages", strings.Count(string(out), "\n"))
}
