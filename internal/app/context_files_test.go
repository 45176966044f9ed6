package app_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
)

// TestContextKeptFilesAnswerAsTheFiles checks that the context a daemon's
// App gives from the listings and files it keeps between calls is, byte
// for byte, the one a new App reads from the files: on a second call, and
// after each change a person or a sync tool makes behind the App's back (a
// summary edited, a day file appended to and reported by the watcher, a
// day file added, a summary removed).
func TestContextKeptFilesAnswerAsTheFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and consolidates a year of days")
	}
	ctx := context.Background()
	dir := t.TempDir()
	a := corpus(t, dir, 1)
	// Files an hour old: the App keeps only what was not modified just now.
	old := time.Now().Add(-time.Hour)
	if err := filepath.WalkDir(dir, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(path, old, old)
	}); err != nil {
		t.Fatal(err)
	}
	req := daybook.ContextRequest{Budget: 4000}
	check := func(step string, want ...string) {
		t.Helper()
		got, err := a.Context(ctx, req)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		fresh := newTB(t, dir)
		exp, err := fresh.Context(ctx, req)
		if err != nil {
			t.Fatalf("%s: a new App: %v", step, err)
		}
		if got.Markdown != exp.Markdown {
			t.Fatalf("%s: the kept context differs from a new App's:\n--- kept\n%s\n--- new\n%s", step, got.Markdown, exp.Markdown)
		}
		if !reflect.DeepEqual(got, exp) {
			t.Fatalf("%s: the kept context's answer differs from a new App's:\n%+v\n%+v", step, got, exp)
		}
		for _, w := range want {
			if !strings.Contains(got.Markdown, w) {
				t.Fatalf("%s: the context lacks %q:\n%s", step, w, got.Markdown)
			}
		}
	}
	check("first call", "[month:2026-02]")
	check("second call")

	// A yearly summary edited by hand, in place: no hook hears of it.
	year := filepath.Join(dir, "summaries", "2025.md")
	data, err := os.ReadFile(year)
	if err != nil {
		t.Fatal(err)
	}
	head, body, ok := strings.Cut(string(data), "\n# ")
	if !ok {
		t.Fatalf("%s: no title", year)
	}
	title, rest, _ := strings.Cut(body, "\n")
	edited := head + "\n# " + title + "\nA hand-written line about the lighthouse keeper." + rest
	if err := os.WriteFile(year, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	check("summary edited", "lighthouse keeper")

	// The last day appended to by hand, as the watcher reports it.
	last := filepath.Join(dir, "days", "2026", "03", "10.md")
	f, err := os.OpenFile(last, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("- 23:58 Fed the harbour cat before bed. #home\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	a.DaysChanged(ctx, []date.Date{date.MustParse("2026-03-10")})
	check("day appended", "harbour cat")

	// Today's day file added by hand, not reported.
	today := filepath.Join(dir, "days", "2026", "03", "11.md")
	if err := os.WriteFile(today, []byte("- 08:15 Ordered a new kettle. #home\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("day added", "new kettle")

	// A month's summary removed by hand.
	month := filepath.Join(dir, "summaries", "2026", "02.md")
	if err := os.Remove(month); err != nil {
		t.Fatal(err)
	}
	check("summary removed")
	if got, _ := a.Context(ctx, req); strings.Contains(got.Markdown, "[month:2026-02]") {
		t.Fatalf("the removed summary of 2026-02 is still in the context:\n%s", got.Markdown)
	}
}
