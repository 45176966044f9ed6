package importer_test

import (
	"archive/zip"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/internal/adapters/importer"
)

func read(t *testing.T, format, path string, opt importer.Options) importer.Result {
	t.Helper()
	f, err := importer.Lookup(format)
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.Read(path, opt)
	if err != nil {
		t.Fatalf("%s %s: %v", format, path, err)
	}
	return res
}

func local(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, time.UTC)
}

func TestObsidianDailyNotes(t *testing.T) {
	res := read(t, "obsidian", "testdata/obsidian", importer.Options{})
	// Each item of a note is an entry of its own at 00:00 of its day, under
	// the headings it is written under; "# Friday" and "## Saturday" only
	// name the day.
	want := []struct{ from, text string }{
		{"Daily/2024-03-01.md:2", "mood: good"},
		{"Daily/2024-03-01.md:7", "Work: [x] Sent the quarterly report to [[Priya]]"},
		{"Daily/2024-03-01.md:8", "Work: [ ] Book the dentist #health"},
		{"Daily/2024-03-01.md:10", "Work: Lunch at the Basque place on Rua Augusta: the octopus was the best I've had."},
		{"Daily/2024-03-02.md:2", "Hiked the Sintra loop with Tomás, 14 km in the rain. See [[Hiking log]]."},
	}
	if len(res.Entries) != len(want) {
		t.Fatalf("got %d entries, want %d: %+v", len(res.Entries), len(want), res.Entries)
	}
	for i, w := range want {
		e := res.Entries[i]
		day := local(2024, 3, 1, 0, 0)
		if strings.Contains(w.from, "03-02") {
			day = local(2024, 3, 2, 0, 0)
		}
		if e.Text != w.text || e.From != "testdata/obsidian/"+w.from || !e.Local || !e.At.Equal(day) {
			t.Errorf("entry %d: %q from %s at %v, want %q from %s at %v", i+1, e.Text, e.From, e.At, w.text, w.from, day)
		}
	}
	if e := res.Entries[0]; e.AtString() != "2024-03-01T00:00:00" {
		t.Errorf("AtString %q, want a local time without a zone", e.AtString())
	}
	// The vault's daily notes settings name the folder: Ideas.md, outside
	// it, is not a daily note, counted and not reported as bad input.
	if len(res.Skipped) != 0 || res.NotDaily != 1 {
		t.Errorf("skipped %v, not daily %d; want none skipped, Ideas.md counted", res.Skipped, res.NotDaily)
	}
}

// A note's items, lists and blocks are entries of their own, in order,
// each under the headings above it; nothing of the note's text is lost.
func TestObsidianNoteItems(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "2024-03-04.md", `# Monday, 4 March 2024

## Work
### Bramble
- Shipped the importer
  - with tests
  - and docs
- 1. numbered inside

Standup ran long.
It went on.

`+"```sh\n# not a heading\nmake\n```"+`

> A quote
> over two lines

## Empty section
## Home:
1. Fixed the tap
2. Called [[Mum]]

---
Closing thought.

[dune]: https://example.org/dune
`)
	res := read(t, "obsidian", dir, importer.Options{})
	want := []string{
		"Work › Bramble: Shipped the importer\n- with tests\n- and docs",
		"Work › Bramble: 1. numbered inside",
		"Work › Bramble: Standup ran long.\nIt went on.",
		"Work › Bramble: ```sh\n# not a heading\nmake\n```",
		"Work › Bramble: > A quote\n> over two lines",
		"Empty section",
		"Home: Fixed the tap",
		"Home: Called [[Mum]]",
		"Home: Closing thought.",
		"Home: [dune]: https://example.org/dune",
	}
	var got []string
	for _, e := range res.Entries {
		got = append(got, e.Text)
	}
	if !slices.Equal(got, want) {
		t.Errorf("entries:\n%q\nwant:\n%q", got, want)
	}
	if len(res.Entries) > 0 && res.Entries[0].From != filepath.Join(dir, "2024-03-04.md")+":5" {
		t.Errorf("first entry from %s, want line 5", res.Entries[0].From)
	}
}

// A vault is mostly notes that are not daily notes: they are counted, not
// reported as bad input; dot folders are not entered. A vault where no
// note is named by a date in the pattern is an error naming the pattern.
func TestObsidianOtherNotesCounted(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "2024-03-01.md", "A day.\n")
	write(t, dir, "Ideas.md", "Not a day.\n")
	write(t, dir, "Projects/Bramble.md", "Not a day either.\n")
	write(t, dir, ".trash/2024-03-02.md", "Deleted.\n")
	res := read(t, "obsidian", dir, importer.Options{})
	if len(res.Entries) != 1 || len(res.Skipped) != 0 || res.NotDaily != 2 {
		t.Errorf("entries %+v skipped %v not daily %d; want 1 entry, 2 other notes", res.Entries, res.Skipped, res.NotDaily)
	}
	f, _ := importer.Lookup("obsidian")
	_, err := f.Read(dir, importer.Options{Pattern: "DD.MM.YYYY"})
	if err == nil || !strings.Contains(err.Error(), "of its 3 notes, none is named by a date in the pattern DD.MM.YYYY (from --pattern)") {
		t.Errorf("a pattern no note matches: err = %v", err)
	}
	// Logseq's journals folder holds journals only: a name that is not a
	// date there is still reported by name.
	graph := t.TempDir()
	write(t, graph, "journals/2024_03_01.md", "- A day.\n")
	write(t, graph, "journals/Ideas.md", "- Not a day.\n")
	res = read(t, "logseq", graph, importer.Options{})
	if len(res.Entries) != 1 || len(res.Skipped) != 1 || !strings.HasSuffix(res.Skipped[0].String(), "Ideas.md: the name is not a date in the pattern yyyy_MM_dd") {
		t.Errorf("logseq: entries %+v skipped %v", res.Entries, res.Skipped)
	}
}

// The apps' own settings, when the folder given holds them, say where the
// daily notes are and how they are named; --pattern still wins.
func TestNotesSettings(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, ".obsidian/daily-notes.json", `{"folder": "Journal/", "format": "DD.MM.YYYY", "template": "t"}`)
	write(t, vault, "Journal/01.03.2024.md", "A day.\n")
	write(t, vault, "Other/02.03.2024.md", "Not in the daily notes folder.\n")
	res := read(t, "obsidian", vault, importer.Options{})
	if len(res.Entries) != 1 || !res.Entries[0].At.Equal(local(2024, 3, 1, 0, 0)) || len(res.Skipped) != 0 || res.NotDaily != 1 {
		t.Errorf("obsidian settings: %+v %v %d", res.Entries, res.Skipped, res.NotDaily)
	}
	f, _ := importer.Lookup("obsidian")
	if _, err := f.Read(vault, importer.Options{Pattern: "YYYY-MM-DD"}); err == nil || !strings.Contains(err.Error(), "in the pattern YYYY-MM-DD (from --pattern)") {
		t.Errorf("--pattern over the settings: err = %v", err)
	}
	graph := t.TempDir()
	write(t, graph, "logseq/config.edn", "{:meta/version 1\n ;; :journals-directory \"old\"\n :journal/file-name-format \"yyyy-MM-dd\"\n :hidden [] :ref/linkable-properties #{:a}\n :journals-directory \"diary\"}\n")
	write(t, graph, "diary/2024-03-01.md", "- A day.\n")
	res = read(t, "logseq", graph, importer.Options{})
	if len(res.Entries) != 1 || !res.Entries[0].At.Equal(local(2024, 3, 1, 0, 0)) || len(res.Skipped) != 0 {
		t.Errorf("logseq config.edn: %+v %v", res.Entries, res.Skipped)
	}
}

// Settings that cannot be read, and a note that is not UTF-8, are
// reported by file (and line and column where known); the rest is read.
func TestNotesBrokenInputReported(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, ".obsidian/daily-notes.json", "{\"folder\": \"Daily\",\n \"format\": DD.MM.YYYY}")
	write(t, vault, "2024-03-01.md", "A day.\n")
	write(t, vault, "2024-03-02.md", "Caf\xe9 with Ana.\n")
	res := read(t, "obsidian", vault, importer.Options{})
	if len(res.Entries) != 1 || len(res.Skipped) != 2 {
		t.Fatalf("entries %+v skipped %v", res.Entries, res.Skipped)
	}
	if s := res.Skipped[0].String(); !strings.HasPrefix(s, filepath.Join(vault, ".obsidian/daily-notes.json")+":2:12: invalid character") {
		t.Errorf("broken settings reported as %q, want file:line:column", s)
	}
	if s := res.Skipped[1]; s.From != filepath.Join(vault, "2024-03-02.md") || s.Why != importer.WhyNotUTF8 || !strings.Contains(s.Reason, "byte 0xE9 at line 1, column 4") {
		t.Errorf("a Latin-1 note reported as %q (%s)", s, s.Why)
	}
	graph := t.TempDir()
	write(t, graph, "logseq/config.edn", "{:meta/version 1\n :journal/file-name-format \"yyyy-MM-dd\"\n")
	write(t, graph, "journals/2024_03_01.md", "- A day.\n")
	res = read(t, "logseq", graph, importer.Options{})
	if len(res.Entries) != 1 || len(res.Skipped) != 1 || !strings.HasPrefix(res.Skipped[0].String(), filepath.Join(graph, "logseq/config.edn")+": not valid EDN") {
		t.Errorf("a broken config.edn: entries %+v skipped %v", res.Entries, res.Skipped)
	}
}

func TestObsidianPattern(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "Journal/2024/03/01-03-2024.md", "Bought a kayak.\n")
	write(t, dir, "Journal/2024/03/nope.md", "Not a day.\n")
	res := read(t, "obsidian", dir, importer.Options{Pattern: "DD-MM-YYYY"})
	if len(res.Entries) != 1 || !res.Entries[0].At.Equal(local(2024, 3, 1, 0, 0)) {
		t.Errorf("DD-MM-YYYY: %+v", res.Entries)
	}
	// A pattern with folders is matched against the path under the folder given.
	res = read(t, "obsidian", dir, importer.Options{Pattern: "[Journal]/YYYY/MM/DD-MM-YYYY"})
	if len(res.Entries) != 1 || !res.Entries[0].At.Equal(local(2024, 3, 1, 0, 0)) {
		t.Errorf("with folders: %+v", res.Entries)
	}
	f, _ := importer.Lookup("obsidian")
	if _, err := f.Read(dir, importer.Options{Pattern: "YYYY-MM"}); err == nil || !strings.Contains(err.Error(), `"YYYY-MM"`) {
		t.Errorf("a pattern without a day: err = %v", err)
	}
}

func TestLogseqJournals(t *testing.T) {
	res := read(t, "logseq", "testdata/logseq", importer.Options{})
	// The empty journal page is nothing to import; pages/ is not journals/.
	if len(res.Entries) != 1 || len(res.Skipped) != 0 {
		t.Fatalf("entries %+v skipped %v", res.Entries, res.Skipped)
	}
	if e := res.Entries[0]; !e.At.Equal(local(2024, 3, 1, 0, 0)) || !strings.Contains(e.Text, "id:: 65e1f0a2") {
		t.Errorf("entry %+v, want the 2024-03-01 page with its block properties", e)
	}
}

func TestJrnlText(t *testing.T) {
	res := read(t, "jrnl", "testdata/jrnl.txt", importer.Options{})
	if len(res.Entries) != 3 || len(res.Skipped) != 0 {
		t.Fatalf("entries %+v skipped %v", res.Entries, res.Skipped)
	}
	e := res.Entries[1]
	if !e.At.Equal(local(2012, 3, 30, 18, 42)) || e.From != "testdata/jrnl.txt:4" {
		t.Errorf("entry at %v from %s", e.At, e.From)
	}
	if e.Text != "Dinner with @Gabriel at the Thai place.\nHe recommended the green curry; next time order it mild." {
		t.Errorf("text %q: want title and body, without the star", e.Text)
	}
	if !slices.Equal(e.Tags, []string{"gabriel", "starred"}) {
		t.Errorf("tags %v", e.Tags)
	}
}

func TestJrnlJSONMatchesText(t *testing.T) {
	text := read(t, "jrnl", "testdata/jrnl.txt", importer.Options{})
	js := read(t, "jrnl", "testdata/jrnl.json", importer.Options{})
	if len(js.Entries) != len(text.Entries) {
		t.Fatalf("JSON %d entries, text %d", len(js.Entries), len(text.Entries))
	}
	for i := range js.Entries {
		a, b := js.Entries[i], text.Entries[i]
		if !a.At.Equal(b.At) || a.Text != b.Text || !slices.Equal(a.Tags, b.Tags) {
			t.Errorf("entry %d: JSON %+v, text %+v", i+1, a, b)
		}
	}
}

func TestJrnlBadInput(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "j.txt", "a stray line\n[2012-03-29 09:00] Good.\n[yesterday] Not a date, so part of the entry above.\n")
	res := read(t, "jrnl", p, importer.Options{})
	if len(res.Entries) != 1 || !strings.Contains(res.Entries[0].Text, "[yesterday]") {
		t.Errorf("entries %+v", res.Entries)
	}
	if len(res.Skipped) != 1 || res.Skipped[0].From != p+":1" {
		t.Errorf("skipped %v, want line 1", res.Skipped)
	}
	p = write(t, dir, "j.json", `{"entries": [{"title": "No time", "date": "2012-03-29"}, 7]}`)
	res = read(t, "jrnl", p, importer.Options{})
	if len(res.Entries) != 0 || len(res.Skipped) != 2 || res.Skipped[1].From != p+": entry 2" {
		t.Errorf("skipped %v", res.Skipped)
	}
}

func TestDayOne(t *testing.T) {
	res := read(t, "dayone", "testdata/dayone", importer.Options{})
	if len(res.Entries) != 2 {
		t.Fatalf("entries %+v", res.Entries)
	}
	e := res.Entries[0]
	if e.Local || !e.At.Equal(time.Date(2017, 6, 28, 15, 38, 37, 0, time.UTC)) || e.AtString() != "2017-06-28T15:38:37Z" {
		t.Errorf("at %v (%s), want the instant of creationDate", e.At, e.AtString())
	}
	if !slices.Equal(e.Tags, []string{"green-island", "hot-spring", "starred"}) || !strings.HasPrefix(e.Text, "# Zhaori hot spring\n\n![](dayone-moment://") {
		t.Errorf("tags %v text %q", e.Tags, e.Text)
	}
	if len(res.Skipped) != 1 || res.Skipped[0].String() != filepath.Join("testdata/dayone", "Journal.json")+": entry 3: no creationDate" {
		t.Errorf("skipped %v", res.Skipped)
	}
}

func TestChatGPT(t *testing.T) {
	res := read(t, "chatgpt", "testdata/chatgpt/conversations.json", importer.Options{})
	var texts []string
	for _, e := range res.Entries {
		texts = append(texts, e.Text)
	}
	// The branch shown: the system message and the regenerated answer are left out.
	want := []string{
		"Packing for Lisbon · user: What should I pack for four days in Lisbon in March?",
		"Packing for Lisbon · assistant: Pack layers",
		"Packing for Lisbon · user: Is this jacket warm enough?",
	}
	if len(texts) != len(want) {
		t.Fatalf("texts %q", texts)
	}
	for i := range want {
		if !strings.HasPrefix(texts[i], want[i]) {
			t.Errorf("message %d: %q, want %q...", i+1, texts[i], want[i])
		}
	}
	if at := res.Entries[1].At; !at.Equal(time.Unix(1709290812, 250e6)) || res.Entries[1].Local {
		t.Errorf("at %v", at)
	}
	if len(res.Skipped) != 0 {
		t.Errorf("skipped %v", res.Skipped)
	}
}

func TestLoCoMoEntries(t *testing.T) {
	res := read(t, "locomo", "testdata/locomo.json", importer.Options{})
	if len(res.Entries) != 4 {
		t.Fatalf("entries %+v", res.Entries)
	}
	e := res.Entries[2]
	if e.Text != "Melanie: I ran a charity race for mental health last Saturday." || e.AtString() != "2023-05-25T19:55:00" || e.From != "testdata/locomo.json#conv-1/D2:1" {
		t.Errorf("entry %+v", e)
	}
}

func TestUnknownFormat(t *testing.T) {
	if _, err := importer.Lookup("evernote"); err == nil || !strings.Contains(err.Error(), "chatgpt, dayone, jrnl, locomo, logseq, obsidian") {
		t.Errorf("err = %v, want the known formats listed", err)
	}
}

func TestTag(t *testing.T) {
	for in, want := range map[string]string{"@Work": "work", "Green Island": "green-island", "#ops/certs": "ops/certs", "2024": "", "温泉": "温泉"} {
		if got := importer.Tag(in); got != want {
			t.Errorf("Tag(%q) = %q, want %q", in, got, want)
		}
	}
}

func write(t *testing.T, dir, rel, content string) string {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Exports are read as downloaded: a Day One or ChatGPT .zip gives the same
// entries as its unzipped files, named by zip and member.
func TestExportZips(t *testing.T) {
	for _, tc := range []struct{ format, dir, member string }{
		{"dayone", "testdata/dayone", "Journal.json"},
		{"chatgpt", "testdata/chatgpt", "conversations.json"},
	} {
		zipPath := filepath.Join(t.TempDir(), "export.zip")
		f, err := os.Create(zipPath)
		if err != nil {
			t.Fatal(err)
		}
		zw := zip.NewWriter(f)
		data, _ := os.ReadFile(filepath.Join(tc.dir, tc.member))
		w, _ := zw.Create("export/" + tc.member)
		w.Write(data)
		w, _ = zw.Create("export/photos/readme.txt")
		w.Write([]byte("not a journal"))
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		f.Close()
		fromDir := read(t, tc.format, tc.dir, importer.Options{})
		fromZip := read(t, tc.format, zipPath, importer.Options{})
		if len(fromZip.Entries) == 0 || len(fromZip.Entries) != len(fromDir.Entries) {
			t.Fatalf("%s: %d entries from the zip, %d from the folder", tc.format, len(fromZip.Entries), len(fromDir.Entries))
		}
		for i := range fromZip.Entries {
			if z, d := fromZip.Entries[i], fromDir.Entries[i]; z.Text != d.Text || !z.At.Equal(d.At) {
				t.Errorf("%s entry %d: zip %+v, folder %+v", tc.format, i+1, z, d)
			}
		}
		if want := zipPath + "/export/" + tc.member; !strings.HasPrefix(fromZip.Entries[0].From, want) {
			t.Errorf("%s: From %q, want it to name %s", tc.format, fromZip.Entries[0].From, want)
		}
	}
}

// A notes folder given through a symbolic link is read like the folder.
func TestNotesThroughALink(t *testing.T) {
	link := filepath.Join(t.TempDir(), "vault")
	abs, _ := filepath.Abs("testdata/obsidian")
	if err := os.Symlink(abs, link); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if res := read(t, "obsidian", link, importer.Options{}); len(res.Entries) != 5 {
		t.Errorf("through a link: %d entries, want 5", len(res.Entries))
	}
}

// Logseq's :journal/file-name-format is in date-fns tokens: yyyy-MM-dd.
func TestLogseqPattern(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "journals/2024-03-01.md", "- Bought a kayak.\n")
	res := read(t, "logseq", dir, importer.Options{Pattern: "yyyy-MM-dd"})
	if len(res.Entries) != 1 || !res.Entries[0].At.Equal(local(2024, 3, 1, 0, 0)) {
		t.Errorf("yyyy-MM-dd: %+v %v", res.Entries, res.Skipped)
	}
}

// A line headed like an entry whose date or time does not parse is
// reported by file:line with its text, and neither it nor its body is
// glued to the entry above.
func TestJrnlBadTimeIsReported(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "j.txt", "[2024-03-01 09:00] Good one.\nIts body.\n\n[2024-03-02 25:61] Bad clock.\nThe bad one's body.\n\n[2024-02-30 10:00] No such day.\n\n[2024-03-03 08:00] Good again.\n")
	res := read(t, "jrnl", p, importer.Options{})
	if len(res.Entries) != 2 || res.Entries[0].Text != "Good one.\nIts body." || res.Entries[1].Text != "Good again." {
		t.Errorf("entries %+v, want the two good ones, nothing glued", res.Entries)
	}
	if len(res.Skipped) != 2 {
		t.Fatalf("skipped %v, want the two bad headers", res.Skipped)
	}
	for i, want := range []string{p + ":4: [2024-03-02 25:61] Bad clock.", p + ":7: [2024-02-30 10:00] No such day."} {
		if s := res.Skipped[i]; !strings.HasPrefix(s.String(), want) || s.Why != importer.WhyBadTime {
			t.Errorf("skip %d: %q (%s), want it to start %q", i+1, s, s.Why, want)
		}
	}
}

// A JSON export cut short (or otherwise broken) is an error naming the
// file, and the line and column where its JSON broke.
func TestTruncatedJSONExports(t *testing.T) {
	for _, tc := range []struct{ format, src, name string }{
		{"dayone", "testdata/dayone/Journal.json", "Journal.json"},
		{"chatgpt", "testdata/chatgpt/conversations.json", "conversations.json"},
		{"locomo", "testdata/locomo.json", "locomo.json"},
		{"jrnl", "testdata/jrnl.json", "jrnl.json"},
	} {
		b, err := os.ReadFile(tc.src)
		if err != nil {
			t.Fatal(err)
		}
		cut := b[:len(b)/2]
		p := write(t, t.TempDir(), tc.name, string(cut))
		line, col := 1+strings.Count(string(cut), "\n"), 1+len([]rune(string(cut[strings.LastIndex(string(cut), "\n")+1:])))
		f, _ := importer.Lookup(tc.format)
		_, err = f.Read(p, importer.Options{})
		if want := fmt.Sprintf("%s:%d:%d: unexpected end of JSON input (the file ends before its JSON does: cut short?)", p, line, col); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s cut short: err = %v, want it to say %q", tc.format, err, want)
		}
		// A value of the wrong kind is named by where it is, not by Go's types.
		broken := strings.Replace(string(b), "[", "7, [", 1)
		p = write(t, t.TempDir(), tc.name, broken)
		if _, err = f.Read(p, importer.Options{}); err == nil || !strings.Contains(err.Error(), p+":") || strings.Contains(err.Error(), "Go ") {
			t.Errorf("%s with a stray 7: err = %v, want the path, line and column, and no Go type", tc.format, err)
		}
	}
}
