package main

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "write ../daybook/help.txt from daybook-core's help")

// The front prints the command list from ../daybook/help.txt without
// linking the commands: it must be daybook-core's own "daybook help".
func TestFrontHelp(t *testing.T) {
	const path = "../daybook/help.txt"
	var want bytes.Buffer
	printHelp(&want)
	if *update {
		if err := os.WriteFile(path, want.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("%s is not daybook-core's help; run go test ./cmd/daybook-core -run TestFrontHelp -update\n got:\n%s\nwant:\n%s", path, got, want.Bytes())
	}
}
