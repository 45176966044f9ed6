package app_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/app"
)

// A day that reached dayfiles.FullAt still takes entries: each as a stub
// whose whole text is in a rest file it links to; doctor says the day is
// full. Remember, RememberTurns and Import all write through the same
// Keeper.Append.
func TestFullDayTakesStubs(t *testing.T) {
	dir := t.TempDir()
	a := newApp(t, dir)
	d := date.MustParse("2026-11-20")
	var b strings.Builder
	b.WriteString(dayfiles.Title(d) + "\n\n")
	for i := 0; b.Len() < dayfiles.FullAt-2000; i++ {
		fmt.Fprintf(&b, "- 09:%02d entry %d of a day someone filled with a very long log of small things\n", i%60, i)
	}
	path := dayfiles.Path(dir, d)
	os.MkdirAll(filepath.Dir(path), 0o700)
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	text := strings.Repeat("A long note written to a day that is full. ", 200) // 8.6 kB
	var texts []string
	for i := range 20 {
		texts = append(texts, fmt.Sprintf("note %d: %s", i, text))
	}
	for i, tx := range texts[:10] {
		if _, err := a.Remember(ctx, daybook.RememberRequest{Text: tx, At: "2026-11-20 10:00"}); err != nil {
			t.Fatalf("remember %d to a full day: %v", i, err)
		}
	}
	var reqs []daybook.RememberRequest
	for _, tx := range texts[10:] {
		reqs = append(reqs, daybook.RememberRequest{Text: tx, Kind: "chat", At: "2026-11-20T10:01:00Z"})
	}
	if _, err := a.RememberTurns(ctx, reqs); err != nil {
		t.Fatalf("turns to a full day: %v", err)
	}
	day, err := dayfiles.ParseFile(path, d)
	if err != nil {
		t.Fatalf("the full day no longer parses: %v", err)
	}
	fi, _ := os.Stat(path)
	if fi.Size() > dayfiles.MaxFileSize {
		t.Fatalf("the day is %d bytes, over its limit", fi.Size())
	}
	link := regexp.MustCompile(`\]\(\.\./\.\./\.\./(rest/[^)]+)\)`)
	es := day.Entries[len(day.Entries)-20:]
	for i, e := range es {
		m := link.FindStringSubmatch(e.Text)
		if m == nil || len(e.Text) > dayfiles.MaxStub {
			t.Fatalf("entry %d is %d bytes, not a stub: %.100q", i, len(e.Text), e.Text)
		}
		whole, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(m[1])))
		if err != nil || string(whole) != texts[i] {
			t.Errorf("entry %d's rest file %s: %v, %d bytes, want its whole text", i, m[1], err, len(whole))
		}
	}
	t.Logf("a day of %d bytes (full at %d) took 20 entries of %d bytes as stubs; now %d bytes", b.Len(), dayfiles.FullAt, len(texts[0]), fi.Size())
	r := a.Doctor(ctx, app.DoctorInput{})
	found := false
	for _, c := range r.Checks {
		if c.Name == "day files" && c.Status == daybook.CheckWarn && strings.Contains(c.Detail, "days/2026/11/20.md is full") {
			found = true
		}
	}
	if !found {
		t.Errorf("doctor does not say the day is full: %+v", r.Checks)
	}
}
