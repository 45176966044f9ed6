package reliability

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/daybooktest"
)

// FuzzDayFileOnDisk writes any content as a day file on disk, reads it back
// with ParseFile and appends an entry with AppendMany, the path every write
// takes. A file that is not UTF-8 is refused by name and line and left as
// it was; otherwise the append keeps every byte that was there, the old
// entries keep their ids and the new entry is the last one.
func FuzzDayFileOnDisk(f *testing.F) {
	for _, s := range []string{"", "# 2025-01-10 Friday\n\n- 09:00 a\n", "```\n- 09:00 in code", "<!--\n- 09:00 x",
		"- 09:00 a\r\n  b\r\n", "\xff\xfe- 09:00", "---\na: b\n---\n- 09:00 x", "> - 09:00 quoted", "- 9:00 not an entry"} {
		f.Add([]byte(s), "fuzz probe #fz")
	}
	d := date.MustParse("2025-01-10")
	f.Fuzz(func(t *testing.T, data []byte, text string) {
		dir := t.TempDir()
		p := dayfiles.Path(dir, d)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		day, err := dayfiles.ParseFile(p, d)
		e := dayfiles.NewEntry{At: time.Date(2025, 1, 10, 23, 59, 0, 0, time.UTC), Kind: dayfiles.KindFact, Text: text}
		if e.Validate() != nil {
			e.Text = "fuzz probe #fz"
		}
		_, aerr := daybooktest.AppendMany(dir, time.UTC, []dayfiles.NewEntry{e})
		after, _ := os.ReadFile(p)
		if err != nil {
			if utf8.Valid(data) {
				t.Fatalf("ParseFile failed on UTF-8: %v", err)
			}
			if !strings.HasPrefix(err.Error(), p+":") {
				t.Fatalf("error %q does not name the file and line", err)
			}
			if aerr == nil || !bytes.Equal(after, data) {
				t.Fatalf("an append to a file that does not parse was not refused, or changed it (%v)", aerr)
			}
			return
		}
		if aerr != nil {
			// Refused by name (a block left open that cannot be closed):
			// then nothing may have been written.
			if !bytes.Equal(after, data) {
				t.Fatalf("a refused append changed the file: %v", aerr)
			}
			return
		}
		if !bytes.HasPrefix(after, data) {
			t.Fatalf("the append rewrote bytes that were there")
		}
		again, err := dayfiles.ParseFile(p, d)
		if err != nil {
			t.Fatalf("the file does not parse after the append: %v", err)
		}
		if len(again.Entries) != len(day.Entries)+1 {
			t.Fatalf("%d entries before, %d after one append", len(day.Entries), len(again.Entries))
		}
		for i, old := range day.Entries {
			if again.Entries[i].ID != old.ID || again.Entries[i].Line != old.Line {
				t.Fatalf("entry %d moved or changed id: %s:%d → %s:%d", i, old.ID, old.Line, again.Entries[i].ID, again.Entries[i].Line)
			}
		}
		if last := again.Entries[len(again.Entries)-1]; last.Clock() != "23:59" || last.Kind != dayfiles.KindFact {
			t.Fatalf("the appended entry parsed as %s [%s] %q", last.Clock(), last.Kind, last.Text)
		}
	})
}
