package importer

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// noteWord is a word the split must keep: letters only, so list numbers
// and rules may go.
var noteWord = regexp.MustCompile(`\pL{2,}`)

// FuzzNoteItems checks that splitting any note into items neither panics
// nor loses a word: every word of the note is in an entry, but for the
// names of the note's day (a heading that only names it is left out).
func FuzzNoteItems(f *testing.F) {
	for _, p := range []string{"testdata/obsidian/Daily/2024-03-01.md", "testdata/obsidian/Daily/2024-03-02.md"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("# Friday\n## Work\n- a\n  - b\n\n  para\n1. one\n2) two\n\n```\ncode\n\n> q\n<div>\nx\n</div>\n\nText\n---\n[r]: /u\n")
	f.Add("---\nmood: good\n---\n---\n\n- \n-\n  - nested only\n* [ ] task\r\n\r\n    indented code\n")
	day := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	dayWords := map[string]bool{"friday": true, "fri": true, "march": true, "mar": true}
	f.Fuzz(func(t *testing.T, note string) {
		entries := noteItems([]byte(note), day, "2024-03-01", "n.md")
		var all strings.Builder
		for _, e := range entries {
			if strings.TrimSpace(e.Text) == "" {
				t.Fatalf("an empty entry from %q", note)
			}
			all.WriteString(e.Text + "\n")
		}
		for _, w := range noteWord.FindAllString(note, -1) {
			if !dayWords[strings.ToLower(w)] && !strings.Contains(all.String(), w) {
				t.Fatalf("the word %q of %q is in no entry: %q", w, note, all.String())
			}
		}
	})
}
