package main

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeTour follows the README's first tour literally, on whatever
// day the test runs, in a fresh home: each "$ bin/daybook ..." line is run
// and must print exactly the lines shown under it.
func TestReadmeTour(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	tour := strings.Index(string(readme), "## A tour")
	if tour < 0 {
		t.Fatal("README.md has no tour")
	}
	m := regexp.MustCompile("(?s)```console\n(.*?)```").FindStringSubmatch(string(readme[tour:]))
	if m == nil {
		t.Fatal("the tour has no console block")
	}
	home := t.TempDir()
	for k, v := range map[string]string{"HOME": home, "XDG_CONFIG_HOME": "", "XDG_DATA_HOME": "", "XDG_RUNTIME_DIR": "",
		"DAYBOOK_DIR": "", "DAYBOOK_CONFIG": "", "DAYBOOK_SOCKET": ""} {
		t.Setenv(k, v)
	}
	steps := strings.Split("\n"+m[1], "\n$ ")[1:]
	if len(steps) < 5 {
		t.Fatalf("the tour has %d commands", len(steps))
	}
	for _, step := range steps {
		cmdLine, want, _ := strings.Cut(step, "\n")
		args := shellWords(t, cmdLine)
		if len(args) == 0 || args[0] != "bin/daybook" {
			t.Fatalf("tour step %q does not run bin/daybook", cmdLine)
		}
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args[1:], strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Fatalf("%s: exit %d\n%s", cmdLine, code, stderr.String())
		}
		if got := strings.TrimSpace(stdout.String()); got != strings.TrimSpace(want) {
			t.Errorf("%s printed:\n%s\nthe README shows:\n%s", cmdLine, got, strings.TrimSpace(want))
		}
	}
}

// A new user's first build fetches modules from the network and takes a
// while: the README says so where it gives the build command.
func TestReadmeSaysTheFirstBuildDownloads(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	start := string(readme)
	if i := strings.Index(start, "## A tour"); i > 0 {
		start = start[:i]
	}
	if !strings.Contains(start, "go build") || !regexp.MustCompile(`first build downloads the modules`).MatchString(start) {
		t.Error("README's Start does not say that the first build downloads the modules")
	}
}

// shellWords splits a command line as a shell would for the tour's lines:
// words separated by spaces, with double-quoted words.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range line {
		switch {
		case r == '"':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("unbalanced quotes in %q", line)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}
