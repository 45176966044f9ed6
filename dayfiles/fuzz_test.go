package dayfiles

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzParse checks, for any content of a day file, that Parse does not panic,
// that entry line ranges lie inside the file in increasing order without
// overlap and with unique ids, and that appending an entry the way Append
// does keeps every byte that was there and adds exactly that one entry.
func FuzzParse(f *testing.F) {
	inputs, _ := filepath.Glob(filepath.Join("testdata", "parse", "*.md"))
	for _, in := range inputs {
		if data, err := os.ReadFile(in); err == nil {
			f.Add(data, "Chose Argon2 over bcrypt. #auth")
		}
	}
	for _, s := range []string{
		"", "\n", "- 09:14 x", "```\n- 09:14 in code", "<!-- open comment\n- 09:14 x",
		"<pre>\n- 09:00 x", "- 09:00 a\n  ```\n  open fence in an item", "> quote\n- 09:00 lazy",
		"---\nfront: matter\n", "<div>\n", "1. 09:00 ordered", "- 09:00 a\n\n\n    indented code",
		"\uFEFF- 09:00 bom", "- 09:00 crlf\r\n\r\n", "para\n===", "  ~~~\n", "<![CDATA[\n", "<?php\n",
	} {
		f.Add([]byte(s), "multi\nline #tag\n```\ncode")
	}
	loc := time.UTC
	at := goldenDay.At(23, 59, loc)
	f.Fuzz(func(t *testing.T, data []byte, text string) {
		day, err := Parse("fuzz.md", goldenDay, data)
		if err != nil {
			if utf8.Valid(data) {
				t.Fatalf("Parse failed on UTF-8 input: %v", err)
			}
			if !strings.HasPrefix(err.Error(), "fuzz.md:") {
				t.Fatalf("error %q does not name the file and line", err)
			}
			return
		}
		checkInvariants(t, data, day)

		e := NewEntry{At: at, Kind: KindFact, Text: text}
		if e.Validate() != nil {
			e.Text = "fuzz probe #fz"
		}
		chunk := e.Format(loc)
		add, news, err := appendText("fuzz.md", goldenDay, data, chunk, 1)
		if err != nil {
			t.Fatalf("appending %q: %v", chunk, err)
		}
		if strings.TrimSpace(add) == "" || !strings.HasSuffix(add, chunk) {
			t.Fatalf("appendText returned %q for chunk %q", add, chunk)
		}
		full := append(append([]byte{}, data...), add...)
		again, err := Parse("fuzz.md", goldenDay, full)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, full, again)
		if len(again.Entries) != len(day.Entries)+1 || len(news) != 1 {
			t.Fatalf("%d entries before, %d after appending %q", len(day.Entries), len(again.Entries), add)
		}
		if got := again.Entries[len(again.Entries)-1]; !reflect.DeepEqual(news[0], got) {
			t.Fatalf("appendText says the entry reads back as %+v, it reads back as %+v", news[0], got)
		}
		for i, old := range day.Entries {
			if again.Entries[i].ID != old.ID {
				t.Fatalf("entry %d changed id from %s to %s", i, old.ID, again.Entries[i].ID)
			}
		}
		last := again.Entries[len(again.Entries)-1]
		want := strings.Trim(strings.ReplaceAll(strings.ReplaceAll(e.Text, "\r\n", "\n"), "\r", "\n"), " \t\n") // as Format trims
		fences := 0
		for _, l := range strings.Split(want, "\n") {
			if t := strings.TrimLeft(l, " "); len(l)-len(t) <= 3 && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")) {
				fences++
			}
		}
		if fences%2 == 1 {
			want += "\n```" // Format closes a fence the text leaves open
		}
		if last.Clock() != "23:59" || last.Kind != KindFact || normalizeSpace(last.Text) != normalizeSpace(want) {
			t.Fatalf("appended entry parsed as %s [%s] %q, want 23:59 [fact] %q", last.Clock(), last.Kind, last.Text, want)
		}
	})
}

func normalizeSpace(s string) string { return strings.Join(strings.Fields(s), " ") }
