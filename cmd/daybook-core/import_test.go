package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/adapters/importer"
)

// importEnv points daybook at a fresh data dir with its zone set to UTC
// and no daemon, and returns a func running daybook there.
func importEnv(t *testing.T) (dir string, daybook func(args ...string) (stdout, stderr string, code int)) {
	t.Helper()
	work := t.TempDir()
	dir = filepath.Join(work, "data")
	cfg := filepath.Join(work, "config.yaml")
	if err := os.WriteFile(cfg, []byte("timezone: UTC\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DAYBOOK_DIR", dir)
	t.Setenv("DAYBOOK_CONFIG", cfg)
	t.Setenv("XDG_RUNTIME_DIR", filepath.Join(work, "run"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(work, "config"))
	return dir, func(args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(""), &out, &errb)
		return out.String(), errb.String(), code
	}
}

// hashTree returns a hash of every file under root, to show it untouched.
func hashTree(t *testing.T, root string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = sha256.Sum256(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Each format's example round-trips: imported, its day shows it as written,
// recall finds a fact from it, a second import adds nothing, and the
// source is never touched.
func TestImportRoundTrip(t *testing.T) {
	const src = "../../internal/adapters/importer/testdata/"
	for _, tc := range []struct {
		format, path string
		code         int    // 1 when the example holds a part to skip
		summary      string // of the first import
		day          string
		shows        []string // lines of "day" output, as written
		recall, hit  string   // a query, and the day it must find first
	}{
		{"obsidian", "obsidian", 0, "imported 5 entries into 2 days; left out 1 note that is not a daily note", "2024-03-01",
			[]string{"- 00:00 Work: [x] Sent the quarterly report to [[Priya]]", "- 00:00 Work: [ ] Book the dentist #health"},
			"octopus on Rua Augusta", "2024-03-01"},
		{"logseq", "logseq", 0, "imported 1 entry into 1 day", "2024-03-01",
			[]string{"- 00:00 - Planted the tomato seedlings on the balcony #garden", "    id:: 65e1f0a2-1c3b-4d5e-9f00-123456789abc", "  - TODO Call the plumber about the kitchen tap"},
			"tomato seedlings", "2024-03-01"},
		{"jrnl", "jrnl.txt", 0, "imported 3 entries into 3 days", "2012-03-30",
			[]string{"- 18:42 Dinner with @Gabriel at the Thai place. #gabriel #starred", "  He recommended the green curry; next time order it mild."},
			"green curry", "2012-03-30"},
		{"jrnl", "jrnl.json", 0, "imported 3 entries into 3 days", "2012-03-29",
			[]string{"- 09:00 Called in sick.", "  Used the time to clean the house and write my book."},
			"clean the house", "2012-03-29"},
		{"dayone", "dayone", 1, "imported 2 entries into 2 days; 1 was skipped (1 with no time; listed above)", "2017-12-25",
			[]string{"- 03:04 Spent the day fixing bugs in a cafe near Phetchaburi Soi 13. The mango sticky rice was worth the walk."},
			"mango sticky rice", "2017-12-25"},
		{"chatgpt", "chatgpt/conversations.json", 0, "imported 3 entries into 1 day", "2024-03-01",
			[]string{"- 11:00 Packing for Lisbon · assistant: Pack layers and a light rain jacket: March in Lisbon runs 10 to 18 °C with showers.", "  - a travel umbrella"},
			"rain jacket", "2024-03-01"},
		{"locomo", "locomo.json", 0, "imported 4 entries into 2 days", "2023-05-25",
			[]string{"- 19:55 Melanie: I ran a charity race for mental health last Saturday."},
			"charity race", "2023-05-25"},
	} {
		t.Run(tc.format+"/"+tc.path, func(t *testing.T) {
			_, daybook := importEnv(t)
			before := hashTree(t, src)
			out, errs, code := daybook("import", "--from", tc.format, src+tc.path)
			if code != tc.code || strings.TrimSpace(out) != tc.summary {
				t.Fatalf("import: exit %d, stdout %q, stderr %q; want exit %d and %q", code, out, errs, tc.code, tc.summary)
			}
			out, errs, code = daybook("day", tc.day)
			if code != 0 {
				t.Fatalf("day: %d %s", code, errs)
			}
			for _, l := range tc.shows {
				if !strings.Contains("\n"+out+"\n", "\n"+l+"\n") {
					t.Errorf("day %s does not show the line %q as written:\n%s", tc.day, l, out)
				}
			}
			out, errs, code = daybook("recall", tc.recall, "--json", "--limit", "3")
			var rec struct {
				Results []struct{ Period string }
			}
			if err := json.Unmarshal([]byte(out), &rec); err != nil || code != 0 || len(rec.Results) == 0 || rec.Results[0].Period != tc.hit {
				t.Errorf("recall %q: exit %d, %s %s; want %s first", tc.recall, code, out, errs, tc.hit)
			}
			out, _, _ = daybook("import", "--from", tc.format, src+tc.path)
			if !regexp.MustCompile(`^imported 0 entries into 0 days; (1 was|\d+ were) there already`).MatchString(out) {
				t.Errorf("the second import: %q, want nothing added", out)
			}
			after := hashTree(t, src)
			if len(after) != len(before) {
				t.Errorf("the source has %d files after, %d before", len(after), len(before))
			}
			for p, h := range before {
				if after[p] != h {
					t.Errorf("the import changed its source %s", p)
				}
			}
		})
	}
}

// --dry-run says what would be written, and writes nothing.
func TestImportDryRun(t *testing.T) {
	dir, daybook := importEnv(t)
	out, errs, code := daybook("import", "--from", "jrnl", "../../internal/adapters/importer/testdata/jrnl.txt", "--dry-run")
	if code != 0 || strings.TrimSpace(out) != "would import 3 entries into 3 days (2012-03-29 to 2012-03-31)" {
		t.Fatalf("exit %d, %q %q", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "days")); !os.IsNotExist(err) {
		t.Errorf("a dry run wrote %s: %v", filepath.Join(dir, "days"), err)
	}
	daybook("import", "--from", "jrnl", "../../internal/adapters/importer/testdata/jrnl.txt")
	out, _, _ = daybook("import", "--from", "jrnl", "../../internal/adapters/importer/testdata/jrnl.json", "--dry-run")
	if strings.TrimSpace(out) != "would import 0 entries into 0 days; 3 were there already" {
		t.Errorf("dry run after the import: %q", out)
	}
}

// --strict stops at the first bad input, naming it, before anything is written.
func TestImportStrict(t *testing.T) {
	dir, daybook := importEnv(t)
	vault := t.TempDir()
	os.WriteFile(filepath.Join(vault, "2024-03-01.md"), []byte("A day.\n"), 0o644)
	os.WriteFile(filepath.Join(vault, "2024-03-02.md"), []byte("Caf\xe9.\n"), 0o644)
	_, errs, code := daybook("import", "--from", "obsidian", vault, "--strict")
	if code != 1 || !strings.Contains(errs, "2024-03-02.md: not UTF-8 text: byte 0xE9 at line 1, column 4 (save it as UTF-8 and import it again); nothing imported") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "days")); !os.IsNotExist(err) {
		t.Errorf("--strict wrote %s", filepath.Join(dir, "days"))
	}
}

// Dates outside 1900 to the day after tomorrow are skipped by name, unless
// --any-date.
func TestImportDateWindow(t *testing.T) {
	_, daybook := importEnv(t)
	p := filepath.Join(t.TempDir(), "old.txt")
	os.WriteFile(p, []byte("[1850-03-02 10:00] Grandfather's diary.\n\n[1999-12-31 23:59] Party like it's 1999.\n"), 0o644)
	out, errs, code := daybook("import", "--from", "jrnl", p)
	if code != 1 || !strings.Contains(errs, p+":1: 1850-03-02 is outside 1900-01-01") || strings.TrimSpace(out) != "imported 1 entry into 1 day; 1 was skipped (1 outside the date window; listed above)" {
		t.Fatalf("exit %d, %q %q", code, out, errs)
	}
	out, errs, code = daybook("import", "--from", "jrnl", p, "--any-date")
	if code != 0 || strings.TrimSpace(out) != "imported 1 entry into 1 day; 1 was there already" {
		t.Fatalf("--any-date: exit %d, %q %q", code, out, errs)
	}
}

func TestImportUnknownFormat(t *testing.T) {
	_, daybook := importEnv(t)
	_, errs, code := daybook("import", "--from", "evernote", "x.enex")
	if code != 2 || !strings.Contains(errs, `unknown import format "evernote"`) {
		t.Fatalf("exit %d, %q", code, errs)
	}
}

func TestImportPatternOnlyForNotes(t *testing.T) {
	_, daybook := importEnv(t)
	_, errs, code := daybook("import", "--from", "jrnl", "--pattern", "DD-MM-YYYY", "../../internal/adapters/importer/testdata/jrnl.txt")
	if code != 2 || !strings.Contains(errs, "--pattern names daily notes' file names") {
		t.Fatalf("exit %d, %q", code, errs)
	}
}

// A journal page over the 64 KiB one entry holds is imported whole, as
// several entries of its day, and imported again adds nothing.
func TestImportLongNote(t *testing.T) {
	dir, daybook := importEnv(t)
	graph := t.TempDir()
	vault := filepath.Join(graph, "journals")
	os.Mkdir(vault, 0o755)
	var b strings.Builder
	for i := 0; b.Len() < 150<<10; i++ {
		fmt.Fprintf(&b, "## Hour %d\nParagraph %d of a long day, with enough words to fill it up quickly.\n\n", i, i)
	}
	b.WriteString("The last line mentions the zeppelin.\n")
	os.WriteFile(filepath.Join(vault, "2024_05_01.md"), []byte(b.String()), 0o644)
	out, errs, code := daybook("import", "--from", "logseq", graph)
	if code != 0 || !strings.HasPrefix(out, "imported 3 entries into 1 day") {
		t.Fatalf("exit %d, %q %q", code, out, errs)
	}
	day, _ := os.ReadFile(filepath.Join(dir, "days/2024/05/01.md"))
	if !strings.Contains(string(day), "  The last line mentions the zeppelin.") || !strings.Contains(string(day), "- 00:00 ## Hour 0\n") {
		t.Errorf("the day file lacks the note's start or end")
	}
	out, _, _ = daybook("import", "--from", "logseq", graph)
	if !strings.HasPrefix(out, "imported 0 entries into 0 days; 3 were there already") {
		t.Errorf("again: %q", out)
	}
}

// An instant's day for the window is its day in the configured zone.
func TestInDateWindowTakesTheZone(t *testing.T) {
	at := time.Date(1900, 1, 1, 4, 30, 0, 0, time.UTC) // 1899-12-31 23:30 in New York
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no zone data:", err)
	}
	res := importer.Result{Entries: []importer.Entry{{At: at, Text: "x", From: "f#1"}}}
	if got := inDateWindow(res, false, date.DefaultWindow(), time.Now(), time.UTC); len(got.Entries) != 1 {
		t.Errorf("UTC: %+v, want kept (1900-01-01)", got)
	}
	res = importer.Result{Entries: []importer.Entry{{At: at, Text: "x", From: "f#1"}}}
	got := inDateWindow(res, false, date.DefaultWindow(), time.Now(), ny)
	if len(got.Entries) != 0 || len(got.Skipped) != 1 || !strings.Contains(got.Skipped[0].Reason, "1899-12-31") {
		t.Errorf("New York: %+v, want skipped as 1899-12-31", got)
	}
	res = importer.Result{Entries: []importer.Entry{{At: at, Local: true, Text: "x", From: "f#1"}}}
	if got := inDateWindow(res, false, date.DefaultWindow(), time.Now(), ny); len(got.Entries) != 1 {
		t.Errorf("a local wall clock is its own day: %+v", got)
	}
}

// An Obsidian vault is mostly notes that are not daily notes: its daily
// notes are imported item by item, the others counted, and the import
// exits 0.
func TestImportObsidianVault(t *testing.T) {
	dir, daybook := importEnv(t)
	vault := t.TempDir()
	for name, text := range map[string]string{
		"2024-03-04.md":       "# Monday\n\n## Work\n- Shipped the importer\n- Reviewed [[Ana]]'s change #review\n\nLong standup.\n",
		"Ideas.md":            "Not a day.\n",
		"Projects/Bramble.md": "A project.\n",
		"Reading/Dune.md":     "A book.\n",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(vault, name)), 0o755)
		os.WriteFile(filepath.Join(vault, name), []byte(text), 0o644)
	}
	out, errs, code := daybook("import", "--from", "obsidian", vault)
	if code != 0 || strings.TrimSpace(out) != "imported 3 entries into 1 day; left out 3 notes that are not daily notes" || errs != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	day, _ := os.ReadFile(filepath.Join(dir, "days/2024/03/04.md"))
	for _, l := range []string{"- 00:00 Work: Shipped the importer\n", "- 00:00 Work: Reviewed [[Ana]]'s change #review\n", "- 00:00 Work: Long standup.\n"} {
		if !strings.Contains(string(day), l) {
			t.Errorf("the day file lacks %q:\n%s", l, day)
		}
	}
	out, _, code = daybook("import", "--from", "obsidian", vault, "--json")
	var res struct {
		Added    int `json:"added"`
		There    int `json:"already_there"`
		NotDaily int `json:"not_daily_notes"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 || res.Added != 0 || res.There != 3 || res.NotDaily != 3 {
		t.Errorf("again, --json: exit %d, %s", code, out)
	}
}

// A wrong --from (or none, for an export) says which format the input
// looks like, and lists the ones --from takes; nothing is written.
func TestImportWrongFromHints(t *testing.T) {
	const src = "../../internal/adapters/importer/testdata/"
	for _, tc := range []struct{ from, path, want string }{
		{"", "chatgpt/conversations.json", "this looks like a ChatGPT export: try --from chatgpt"},
		{"jsonl", "dayone/Journal.json", "this looks like a Day One export: try --from dayone"},
		{"dayone", "chatgpt/conversations.json", "this looks like a ChatGPT export: try --from chatgpt"},
		{"chatgpt", "locomo.json", "this looks like a LoCoMo file: try --from locomo"},
		{"locomo", "jrnl.json", "this looks like a jrnl journal: try --from jrnl"},
		{"jrnl", "dayone/Journal.json", "this looks like a Day One export: try --from dayone"},
		{"dayone", "jrnl.txt", "this looks like a jrnl journal: try --from jrnl"},
		{"obsidian", "logseq", "this looks like a Logseq graph: try --from logseq"},
		{"logseq", "obsidian", "this looks like an Obsidian vault: try --from obsidian"},
	} {
		dir, daybook := importEnv(t)
		args := []string{"import", src + tc.path}
		if tc.from != "" {
			args = append(args, "--from", tc.from)
		}
		_, errs, code := daybook(args...)
		if code != 2 || !strings.Contains(errs, tc.want) || !strings.Contains(errs, "(--from takes jsonl, chatgpt, dayone, jrnl, locomo, logseq, obsidian)") {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q with the formats listed", args, code, errs, tc.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "days")); !os.IsNotExist(err) {
			t.Errorf("%v wrote %s", args, filepath.Join(dir, "days"))
		}
	}
	// JSON lines are still JSON lines, whatever their text holds.
	_, daybook := importEnv(t)
	p := filepath.Join(t.TempDir(), "x.jsonl")
	os.WriteFile(p, []byte(`{"text": "Read about \"mapping\": and \"entries\": [2012-03-29 09:00]", "at": "2024-03-01T09:00:00"}`+"\n"), 0o644)
	if out, errs, code := daybook("import", p); code != 0 || strings.TrimSpace(out) != "imported 1 entry into 1 day" {
		t.Errorf("JSON lines: exit %d, %q %q", code, out, errs)
	}
}
