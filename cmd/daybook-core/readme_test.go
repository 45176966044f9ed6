package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The README's Start and its Claude Code lines are run with the real CLI by
// TestReadmeClaude (readme_claude_test.go).

// TestReadmeTour follows the README's tour literally, on whatever day the
// test runs, in a fresh home, up to the generated demo (whose output holds
// timings): each "$ daybook ..." line of its console blocks is run and
// must print exactly the lines shown under it, and each sh block (the
// here-doc that writes the journal the tour imports) is run by sh, with
// /tmp standing for a temp dir of the test's.
func TestReadmeTour(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	tour := strings.Index(string(readme), "## A tour")
	if tour < 0 {
		t.Fatal("README.md has no tour")
	}
	section := string(readme[tour:])
	if end := strings.Index(section[1:], "\n## "); end > 0 {
		section = section[:end+1]
	}
	home, tmp := t.TempDir(), t.TempDir()
	for k, v := range map[string]string{"HOME": home, "XDG_CONFIG_HOME": "", "XDG_DATA_HOME": "", "XDG_RUNTIME_DIR": "",
		"DAYBOOK_DIR": "", "DAYBOOK_CONFIG": "", "DAYBOOK_SOCKET": ""} {
		t.Setenv(k, v)
	}
	inTmp := func(s string) string { return strings.ReplaceAll(s, "/tmp/", tmp+"/") }
	var ran []string
	for _, m := range regexp.MustCompile("(?s)```(console|sh)\n(.*?)```").FindAllStringSubmatch(section, -1) {
		if m[1] == "sh" {
			if out, err := exec.Command("sh", "-c", inTmp(m[2])).CombinedOutput(); err != nil {
				t.Fatalf("the tour's sh block:\n%s\nfailed: %v\n%s", m[2], err, out)
			}
			continue
		}
		if strings.Contains(m[2], "$ daybook gen ") {
			break // the demo: two years generated, timings in its output
		}
		for _, step := range strings.Split("\n"+m[2], "\n$ ")[1:] {
			cmdLine, want, _ := strings.Cut(step, "\n")
			args := shellWords(t, inTmp(cmdLine))
			if len(args) == 0 || args[0] != "daybook" {
				t.Fatalf("tour step %q does not run daybook", cmdLine)
			}
			var stdout, stderr bytes.Buffer
			if code := run(context.Background(), args[1:], strings.NewReader(""), &stdout, &stderr); code != 0 {
				t.Fatalf("%s: exit %d\n%s", cmdLine, code, stderr.String())
			}
			if got := strings.TrimSpace(stdout.String()); got != strings.TrimSpace(want) {
				t.Errorf("%s printed:\n%s\nthe README shows:\n%s", cmdLine, got, strings.TrimSpace(want))
			}
			ran = append(ran, args[1])
		}
	}
	if len(ran) < 5 || !slices.Contains(ran, "import") {
		t.Fatalf("the tour ran %v: want at least 5 commands, an import among them", ran)
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
	if !strings.Contains(start, "go install ./cmd/...") || !regexp.MustCompile(`first build downloads the modules`).MatchString(start) {
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
