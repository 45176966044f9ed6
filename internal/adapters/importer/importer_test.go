package importer_test

import (
	"archive/zip"
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
	if len(res.Entries) != 2 {
		t.Fatalf("got %d entries, want the 2 daily notes: %+v", len(res.Entries), res.Entries)
	}
	e := res.Entries[0]
	want, _ := os.ReadFile("testdata/obsidian/Daily/2024-03-01.md")
	if !e.Local || !e.At.Equal(local(2024, 3, 1, 0, 0)) || e.Text != string(want) {
		t.Errorf("entry %+v, want the note as written at 2024-03-01 00:00 local", e)
	}
	if e.AtString() != "2024-03-01T00:00:00" {
		t.Errorf("AtString %q, want a local time without a zone", e.AtString())
	}
	// The vault's daily notes settings name the folder: Ideas.md is not read.
	if len(res.Skipped) != 0 {
		t.Errorf("skipped %v", res.Skipped)
	}
}

// A note whose name is not a date is reported by name; dot folders are
// not entered.
func TestNotesNotADate(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "2024-03-01.md", "A day.\n")
	write(t, dir, "Ideas.md", "Not a day.\n")
	write(t, dir, ".trash/2024-03-02.md", "Deleted.\n")
	res := read(t, "obsidian", dir, importer.Options{})
	if len(res.Entries) != 1 {
		t.Errorf("entries %+v", res.Entries)
	}
	if len(res.Skipped) != 1 || !strings.HasSuffix(res.Skipped[0].String(), "Ideas.md: the name is not a date in the pattern YYYY-MM-DD") || res.Skipped[0].Why != importer.WhyNotADate {
		t.Errorf("skipped %v, want Ideas.md named", res.Skipped)
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
	if len(res.Entries) != 1 || !res.Entries[0].At.Equal(local(2024, 3, 1, 0, 0)) || len(res.Skipped) != 0 {
		t.Errorf("obsidian settings: %+v %v", res.Entries, res.Skipped)
	}
	if res = read(t, "obsidian", vault, importer.Options{Pattern: "YYYY-MM-DD"}); len(res.Entries) != 0 || len(res.Skipped) != 1 {
		t.Errorf("--pattern over the settings: %+v %v", res.Entries, res.Skipped)
	}
	graph := t.TempDir()
	write(t, graph, "logseq/config.edn", "{:meta/version 1\n ;; :journals-directory \"old\"\n :journal/file-name-format \"yyyy-MM-dd\"\n :journals-directory \"diary\"}\n")
	write(t, graph, "diary/2024-03-01.md", "- A day.\n")
	res = read(t, "logseq", graph, importer.Options{})
	if len(res.Entries) != 1 || !res.Entries[0].At.Equal(local(2024, 3, 1, 0, 0)) || len(res.Skipped) != 0 {
		t.Errorf("logseq config.edn: %+v %v", res.Entries, res.Skipped)
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
	if res := read(t, "obsidian", link, importer.Options{}); len(res.Entries) != 2 {
		t.Errorf("through a link: %d entries, want 2", len(res.Entries))
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
