package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the front's help text (cmd/daybook/help.txt)")

// TestHelpText holds the front's "daybook help", which it prints from
// cmd/daybook/help.txt without starting daybook-core, to what daybook-core
// prints; -update rewrites the file.
func TestHelpText(t *testing.T) {
	var b bytes.Buffer
	printHelp(&b)
	path := filepath.Join("..", "daybook", "help.txt")
	if *update {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	front, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(front, b.Bytes()) {
		t.Errorf("%s differs from daybook-core's help: run go test ./cmd/daybook-core -run TestHelpText -update\n--- front\n%s\n--- core\n%s",
			path, front, b.Bytes())
	}
}
