package dayfiles

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/internal/util/filelock"
)

// writeDay writes content as goldenDay's file under a new data dir and
// returns the dir.
func writeDay(t *testing.T, content string) string {
	t.Helper()
	root := t.TempDir()
	path := Path(root, goldenDay)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func readDay(t *testing.T, root string) string {
	t.Helper()
	data, err := os.ReadFile(Path(root, goldenDay))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func entryAt(hh, mm int, text string) NewEntry {
	return NewEntry{At: goldenDay.At(hh, mm, time.UTC), Text: text}
}

func TestAppendNewFile(t *testing.T) {
	root := t.TempDir()
	w, err := Append(root, time.UTC, NewEntry{At: goldenDay.At(9, 14, time.UTC), Kind: KindDecision, Text: "Chose Argon2 over bcrypt.", Tags: []string{"auth", "#Security"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "# 2026-11-22 Sunday\n\n- 09:14 [decision] Chose Argon2 over bcrypt. #auth #security\n"
	if got := readDay(t, root); got != want {
		t.Fatalf("file is\n%q\nwant\n%q", got, want)
	}
	if w.Line != 3 || w.Rel != "days/2026/11/22.md" || w.Date != goldenDay || !strings.HasPrefix(w.ID, "2026-11-22T09:14-") {
		t.Fatalf("Written = %+v", w)
	}
}

// TestAppendKeepsHandEdits appends to files a person wrote and checks that
// every byte they wrote is still there, in place, and that the new entry
// parses as one top-level entry after the old ones, which keep their ids.
func TestAppendKeepsHandEdits(t *testing.T) {
	tests := []struct {
		name, content, sep string // sep: what Append must put between content and the entry
	}{
		{"hand-written markdown", "# 2026-11-22 Sunday\n\nSome thoughts, *emphasis*, a [link](x).\n\n- 09:00 an entry\n\n## Later\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", "\n"},
		{"no final newline after an entry", "# t\n\n- 09:00 last entry", "\n"},
		{"no final newline after a paragraph", "# t\n\nA paragraph", "\n\n"},
		{"ends in an entry", "# t\n\n- 09:00 a\n", ""},
		{"ends in a blank line", "# t\n\nA paragraph\n\n", ""},
		{"ends in a continuation line", "# t\n\n- 09:00 a\n  more of a\n", ""},
		{"ends in a lazy line", "# t\n\n- 09:00 a\nlazy\n", "\n"},
		{"unclosed code fence", "# t\n\n- 09:00 a\n\n```go\nfunc main() {\n", "```\n\n"},
		{"unclosed tilde fence, no newline", "# t\n\n~~~~\n- 10:00 code", "\n~~~~\n\n"},
		{"unclosed fence inside an entry", "# t\n\n- 09:00 a\n  ```\n  code\n", ""},
		{"HTML block at the end", "# t\n\n<div>\n<p>hi</p>\n</div>\n", "\n"},
		{"open HTML block at the end", "# t\n\n<details>\n<summary>x</summary>\n", "\n"},
		{"open HTML comment", "# t\n\n<!-- TODO\n- 09:00 still in the comment\n", "-->\n\n"},
		{"open pre", "# t\n\n<pre>\nkept\n", "</pre>\n\n"},
		{"front matter only", "---\nmood: ok\n---\n", "\n"},
		{"CRLF file", "# t\r\n\r\n- 09:00 a\r\n", ""},
		{"ordered list", "# t\n\n1. one\n2. two\n", "\n"},
		{"block quote", "# t\n\n> quoted\n", "\n"},
		{"BOM only", "\uFEFF", "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeDay(t, tt.content)
			before, err := Parse("x", goldenDay, []byte(tt.content))
			if err != nil {
				t.Fatal(err)
			}
			w, err := Append(root, time.UTC, entryAt(23, 1, "appended #new"))
			if err != nil {
				t.Fatal(err)
			}
			got := readDay(t, root)
			want := tt.content + tt.sep + "- 23:01 appended #new\n"
			if got != want {
				t.Fatalf("file is\n%q\nwant\n%q", got, want)
			}
			after, err := Parse("x", goldenDay, []byte(got))
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, []byte(got), after)
			if len(after.Entries) != len(before.Entries)+1 {
				t.Fatalf("%d entries before, %d after", len(before.Entries), len(after.Entries))
			}
			for i, e := range before.Entries {
				if after.Entries[i].ID != e.ID {
					t.Fatalf("entry %d changed id", i)
				}
			}
			last := after.Entries[len(after.Entries)-1]
			if last.Text != "appended #new" || last.ID != w.ID || last.Line != w.Line {
				t.Fatalf("last entry %+v, Written %+v", last, w)
			}
		})
	}
}

func TestAppendRefusesBadFiles(t *testing.T) {
	t.Run("not UTF-8", func(t *testing.T) {
		content := "# t\n\n- 09:00 \xff\n"
		root := writeDay(t, content)
		_, err := Append(root, time.UTC, entryAt(10, 0, "x"))
		if err == nil || !strings.Contains(err.Error(), "22.md:3:") {
			t.Fatalf("error = %v, want one naming line 3", err)
		}
		if readDay(t, root) != content {
			t.Fatal("the file was changed")
		}
	})
	t.Run("would pass the size limit", func(t *testing.T) {
		content := strings.Repeat("- 09:00 filler text of an entry\n", MaxFileSize/32)
		root := writeDay(t, content)
		_, err := Append(root, time.UTC, entryAt(10, 0, strings.Repeat("y", 60<<10)))
		if err == nil || !strings.Contains(err.Error(), "limit") {
			t.Fatalf("error = %v, want the size limit", err)
		}
		if readDay(t, root) != content {
			t.Fatal("the file was changed")
		}
	})
}

func TestAppendManyBatches(t *testing.T) {
	root := t.TempDir()
	next := goldenDay.AddDays(1)
	ws, err := AppendMany(root, time.UTC, []NewEntry{
		entryAt(9, 0, "first"),
		{At: next.At(8, 0, time.UTC), Text: "next day"},
		entryAt(9, 0, "first"), // same time and text: the second gets -2
		{At: goldenDay.At(10, 0, time.UTC), Text: "multi\nline\n\n```\nunclosed"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if ws[1].Date != next || ws[1].Line != 3 || ws[2].ID != ws[0].ID+"-2" || ws[3].Line != 5 {
		t.Fatalf("Written = %+v", ws)
	}
	want := "# 2026-11-22 Sunday\n\n- 09:00 first\n- 09:00 first\n- 10:00 multi\n  line\n\n  ```\n  unclosed\n  ```\n"
	if got := readDay(t, root); got != want {
		t.Fatalf("file is\n%q\nwant\n%q", got, want)
	}
	_, err = AppendMany(root, time.UTC, []NewEntry{entryAt(9, 0, "ok"), entryAt(9, 0, " \n ")})
	if err == nil || !strings.Contains(err.Error(), "entry 2") {
		t.Fatalf("error = %v, want one naming entry 2", err)
	}
}

func TestNewEntryValidate(t *testing.T) {
	at := goldenDay.At(9, 0, time.UTC)
	tests := []struct {
		e    NewEntry
		want string
	}{
		{NewEntry{At: at, Text: "  "}, "empty"},
		{NewEntry{At: at, Text: strings.Repeat("x", MaxEntryText+1)}, "over the limit"},
		{NewEntry{At: at, Text: "bad \xff"}, "UTF-8"},
		{NewEntry{At: at, Text: "nul \x00"}, "NUL"},
		{NewEntry{Text: "no time"}, "no time"},
		{NewEntry{At: at, Text: "x", Kind: "idea"}, `"idea"`},
		{NewEntry{At: at, Text: "x", Tags: []string{"1st"}}, `"1st"`},
		{NewEntry{At: at, Text: "x", Tags: []string{"two words"}}, `"two words"`},
		{NewEntry{At: at, Text: "0\n\n*\n\nlost"}, `line 5 ("lost") would end the entry`},
	}
	for _, tt := range tests {
		err := tt.e.Validate()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Validate(%+v) = %v, want an error with %q", tt.e.Text, err, tt.want)
		}
	}
	if err := (NewEntry{At: at, Text: "fine", Tags: []string{"#ops/certs"}}).Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

// TestAppendAfterRename replaces the file the way vim saves (write a new
// file, rename it over the old one) while an append waits for the lock, and
// checks that the entry lands in the new file.
func TestAppendAfterRename(t *testing.T) {
	root := writeDay(t, "# t\n\n- 09:00 old inode\n")
	path := Path(root, goldenDay)
	held, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := filelock.Lock(held); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := Append(root, time.UTC, entryAt(10, 0, "after the rename"))
		done <- err
	}()
	// Wait until the append opened the old inode and blocks on its lock.
	waitBlockedFlock(t, held)
	select {
	case err := <-done:
		t.Fatalf("Append did not wait for the lock: %v", err)
	default:
	}
	tmp := path + ".swp"
	if err := os.WriteFile(tmp, []byte("# t\n\n- 09:00 new inode, edited by hand\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	held.Close() // releases the lock on the old inode
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	want := "# t\n\n- 09:00 new inode, edited by hand\n- 10:00 after the rename\n"
	if got := readDay(t, root); got != want {
		t.Fatalf("file is\n%q\nwant\n%q", got, want)
	}
}

// TestAppendNewSkipsWhatIsThere: an import's entries that the day file
// holds already (same time, same text up to whitespace) are left out, once
// per entry of the file, and the rest are appended as AppendMany would.
func TestAppendNewSkipsWhatIsThere(t *testing.T) {
	root := t.TempDir()
	path := Path(root, goldenDay)
	hand := Title(goldenDay) + "\n\n- 09:00 Coffee   with\tAna.\n\nA note.\n\n- 10:00 [decision] Chose Argon2.\n"
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(hand), 0o644); err != nil {
		t.Fatal(err)
	}
	in := []NewEntry{
		entryAt(9, 0, "Coffee with Ana."),                                              // there, whitespace aside
		entryAt(9, 0, "Coffee with Ana."),                                              // a second one: the file has one
		entryAt(9, 1, "Coffee with Ana."),                                              // another minute
		{At: goldenDay.At(10, 0, time.UTC), Kind: KindDecision, Text: "Chose Argon2."}, // there
		entryAt(11, 0, "Lunch."),
	}
	ws, err := appendNew(root, time.UTC, in, map[string]int{})
	if err != nil {
		t.Fatal(err)
	}
	var skipped []int
	for i, w := range ws {
		if w.Skipped != (w.ID == "") {
			t.Errorf("entry %d: Skipped %v with id %q", i, w.Skipped, w.ID)
		}
		if w.Skipped {
			skipped = append(skipped, i)
		}
	}
	if fmt.Sprint(skipped) != "[0 3]" {
		t.Errorf("skipped %v, want [0 3]", skipped)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(got), hand) {
		t.Fatalf("the file's own content changed:\n%s", got)
	}
	want := "- 09:00 Coffee with Ana.\n- 09:01 Coffee with Ana.\n- 11:00 Lunch.\n"
	if added := strings.TrimLeft(string(got[len(hand):]), "\n"); added != want {
		t.Errorf("appended %q, want %q", added, want)
	}
	day, err := Parse(path, goldenDay, got)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{1, 2, 4} {
		if ws[i].ID == "" || !slices.ContainsFunc(day.Entries, func(e Entry) bool { return e.ID == ws[i].ID && e.Line == ws[i].Line }) {
			t.Errorf("entry %d: %+v is not in the file as written", i, ws[i])
		}
	}

	// The same input again: everything is there now, nothing is written.
	ws, err = appendNew(root, time.UTC, in, map[string]int{})
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range ws {
		if !w.Skipped {
			t.Errorf("second import, entry %d written: %+v", i, w)
		}
	}
	again, _ := os.ReadFile(path)
	if string(again) != string(got) {
		t.Errorf("the second import changed the file:\n%s", again)
	}
}

// TestAppendNewAcrossCalls: an import cut into several calls sharing
// ours writes and skips as one call would.
func TestAppendNewAcrossCalls(t *testing.T) {
	count := func(root string) int {
		day, err := Parse("x", goldenDay, []byte(readDay(t, root)))
		if err != nil {
			t.Fatal(err)
		}
		return len(day.Entries)
	}
	x := entryAt(9, 0, "Same line.")
	for _, tc := range []struct {
		name  string
		had   int // copies of x in the file before
		calls [][]NewEntry
		want  int // copies after
	}{
		{"two equal lines, two calls, no file", 0, [][]NewEntry{{x}, {x}}, 2},
		{"three lines, one there, two calls", 1, [][]NewEntry{{x, x}, {x}}, 3},
		{"three lines, one there, three calls", 1, [][]NewEntry{{x}, {x}, {x}}, 3},
		{"the same two again, two calls", 2, [][]NewEntry{{x}, {x}}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for range tc.had {
				if _, err := Append(root, time.UTC, x); err != nil {
					t.Fatal(err)
				}
			}
			ours := map[string]int{}
			for _, call := range tc.calls {
				if _, err := appendNew(root, time.UTC, call, ours); err != nil {
					t.Fatal(err)
				}
			}
			if got := count(root); got != tc.want {
				t.Errorf("%d entries after, want %d:\n%s", got, tc.want, readDay(t, root))
			}
		})
	}
}

// appendNew appends entries for an import as package merge does: by day,
// each day's file locked, with ours (Locked.Append).
func appendNew(root string, loc *time.Location, entries []NewEntry, ours map[string]int) ([]Written, error) {
	batches, err := ByDay(loc, entries)
	if err != nil {
		return nil, err
	}
	out := make([]Written, len(entries))
	for _, b := range batches {
		l, err := LockDay(root, b.Date, true)
		if err != nil {
			return out, err
		}
		ws, err := l.Append(b.Lines, ours)
		l.Close()
		if err != nil {
			return out, err
		}
		for k, i := range b.Index {
			out[i] = ws[k]
		}
	}
	return out, nil
}
