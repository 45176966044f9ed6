package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// When topics lists only some, the flag its note names lists them all.
func TestTopicsNoteNamesTheFlagThatListsAll(t *testing.T) {
	dir, daybook := importEnv(t)
	var b strings.Builder
	b.WriteString("# 2024-03-01 Friday\n\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "- 09:%02d Worked on part %d. #topic%c%c\n", i, i, 'a'+i/26, 'a'+i%26)
	}
	p := filepath.Join(dir, "days/2024/03/01.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := daybook("topics")
	m := regexp.MustCompile(`^(\d+) of (\d+) topics \((--\S+(?: \d+)?) lists all\)\n$`).FindStringSubmatch(errs)
	if code != 0 || m == nil {
		t.Fatalf("topics: exit %d, stderr %q, want a note naming how to list all", code, errs)
	}
	if n := strings.Count(out, "\n"); strconv.Itoa(n) != m[1] || m[1] == m[2] {
		t.Fatalf("topics listed %d lines, the note says %s of %s", n, m[1], m[2])
	}
	out, errs, code = daybook(append([]string{"topics"}, strings.Fields(m[3])...)...)
	if n := strings.Count(out, "\n"); code != 0 || strconv.Itoa(n) != m[2] || errs != "" {
		t.Errorf("topics %s: exit %d, %d lines, stderr %q; the note promised all %s", m[3], code, n, errs, m[2])
	}
}
