package dayfiles

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/daybook/daybook/dayfiles/date"
)

var update = flag.Bool("update", false, "rewrite the golden .json files of testdata/parse")

var goldenDay = date.MustParse("2026-11-22")

// goldenView is the JSON form of a parsed Day in testdata/parse/*.json.
type goldenView struct {
	Title   string        `json:"title"`
	Entries []goldenEntry `json:"entries"`
	Notes   []Note        `json:"notes"`
}

type goldenEntry struct {
	ID      string   `json:"id"`
	Time    string   `json:"time"`
	Kind    Kind     `json:"kind"`
	Text    string   `json:"text"`
	Tags    []string `json:"tags"`
	Line    int      `json:"line"`
	EndLine int      `json:"end_line"`
}

func viewOf(d *Day) goldenView {
	v := goldenView{Title: d.Title, Entries: []goldenEntry{}, Notes: d.Notes}
	if v.Notes == nil {
		v.Notes = []Note{}
	}
	for _, e := range d.Entries {
		v.Entries = append(v.Entries, goldenEntry{e.ID, e.Clock(), e.Kind, e.Text, e.Tags, e.Line, e.EndLine})
	}
	return v
}

func TestParseGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "parse", "*.md"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".md")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			day, err := Parse(in, goldenDay, data)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			checkInvariants(t, data, day)
			got, err := json.MarshalIndent(viewOf(day), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := strings.TrimSuffix(in, ".md") + ".json"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("reading golden file (run go test ./dayfiles -update): %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the parse; got:\n%s", golden, got)
			}
		})
	}
}

// checkInvariants verifies what must hold for any parse of data: entry and
// note line ranges lie inside the file, in order, and do not overlap; entry
// ids are unique; each entry's first line is its "- HH:MM" line.
func checkInvariants(t testing.TB, data []byte, day *Day) {
	t.Helper()
	lines := newLineIndex(data).count()
	if len(data) == 0 {
		lines = 0
	}
	type span struct{ from, to int }
	var spans []span
	ids := map[string]bool{}
	for _, e := range day.Entries {
		if e.Line < 1 || e.EndLine < e.Line || e.EndLine > lines {
			t.Fatalf("entry %s: lines %d-%d outside the file's %d lines", e.ID, e.Line, e.EndLine, lines)
		}
		if ids[e.ID] {
			t.Fatalf("entry id %s twice", e.ID)
		}
		ids[e.ID] = true
		spans = append(spans, span{e.Line, e.EndLine})
	}
	for _, n := range day.Notes {
		if n.Line < 1 || n.EndLine < n.Line || n.EndLine > lines {
			t.Fatalf("note at %d-%d outside the file's %d lines", n.Line, n.EndLine, lines)
		}
		spans = append(spans, span{n.Line, n.EndLine})
	}
	for i := 1; i < len(day.Entries); i++ {
		if day.Entries[i].Line <= day.Entries[i-1].EndLine {
			t.Fatalf("entries not increasing: %d-%d then %d-%d", day.Entries[i-1].Line, day.Entries[i-1].EndLine, day.Entries[i].Line, day.Entries[i].EndLine)
		}
	}
	slices.SortFunc(spans, func(a, b span) int { return a.from - b.from })
	for i := 1; i < len(spans); i++ {
		if spans[i].from <= spans[i-1].to {
			t.Fatalf("blocks overlap: %d-%d and %d-%d", spans[i-1].from, spans[i-1].to, spans[i].from, spans[i].to)
		}
	}
}

func TestParseEntryHead(t *testing.T) {
	tests := []struct {
		in        string
		ok        bool
		hour, min int
		kind      Kind
		text      string
	}{
		{"09:14 [decision] Chose Argon2.", true, 9, 14, KindDecision, "Chose Argon2."},
		{"9:14 short hour", true, 9, 14, KindNote, "short hour"},
		{"00:00 midnight", true, 0, 0, KindNote, "midnight"},
		{"23:59 last minute", true, 23, 59, KindNote, "last minute"},
		{"23:59", true, 23, 59, KindNote, ""},
		{"12:00 [TODO] upper-case kind", true, 12, 0, KindTodo, "upper-case kind"},
		{"12:00 [Event]glued", true, 12, 0, KindEvent, "glued"},
		{"12:00 [misc] unknown kind stays", true, 12, 0, KindNote, "[misc] unknown kind stays"},
		{"12:00 [] empty brackets", true, 12, 0, KindNote, "[] empty brackets"},
		{"12:00\ttab", true, 12, 0, KindNote, "tab"},
		{"24:00 no", false, 0, 0, "", ""},
		{"23:60 no", false, 0, 0, "", ""},
		{"9:5 no", false, 0, 0, "", ""},
		{"123:00 no", false, 0, 0, "", ""},
		{"09:145 no", false, 0, 0, "", ""},
		{"09:14pm no", false, 0, 0, "", ""},
		{":14 no", false, 0, 0, "", ""},
		{"0914 no", false, 0, 0, "", ""},
		{"", false, 0, 0, "", ""},
		{"9", false, 0, 0, "", ""},
		{"09:1", false, 0, 0, "", ""},
	}
	for _, tt := range tests {
		h, m, k, txt, ok := parseEntryHead(tt.in)
		if ok != tt.ok {
			t.Errorf("parseEntryHead(%q) ok = %v, want %v", tt.in, ok, tt.ok)
			continue
		}
		if ok && (h != tt.hour || m != tt.min || k != tt.kind || txt != tt.text) {
			t.Errorf("parseEntryHead(%q) = %d:%d %q %q, want %d:%d %q %q", tt.in, h, m, k, txt, tt.hour, tt.min, tt.kind, tt.text)
		}
	}
}

func TestTags(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"#auth and #Security", []string{"auth", "security"}},
		{"C# is not a tag", nil},
		{"#1 is not a tag, #1st neither", nil},
		{"a#b is not a tag", nil},
		{"`#code` is not a tag, but #after is", []string{"after"}},
		{"``#code`` double backticks", nil},
		{"#Tag-with-dash/ trailing punctuation trimmed", []string{"tag-with-dash"}},
		{"#ops/certs/ nested", []string{"ops/certs"}},
		{"(#paren) [#bracket]", []string{"paren", "bracket"}},
		{"#dup #DUP #Dup", []string{"dup"}},
		{"#Ünïcode", []string{"ünïcode"}},
		{"#a_b #x-", []string{"a_b", "x"}},
		{"#- #_ #/", nil},
		{"end #tag.", []string{"tag"}},
		{"#tag,#other", []string{"tag"}},
		{"", nil},
		{"#", nil},
		{"line one\n#line-two", []string{"line-two"}},
		{"tab\t#tabbed", []string{"tabbed"}},
	}
	for _, tt := range tests {
		if got := Tags(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Tags(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseKind(t *testing.T) {
	for _, s := range []string{"fact", "FACT", "Decision", "note", "todo", "EVENT", ""} {
		if _, err := ParseKind(s); err != nil {
			t.Errorf("ParseKind(%q): %v", s, err)
		}
	}
	if k, _ := ParseKind(""); k != KindNote {
		t.Errorf("ParseKind(\"\") = %q, want note", k)
	}
	_, err := ParseKind("idea")
	if err == nil || !strings.Contains(err.Error(), `"idea"`) {
		t.Errorf("ParseKind(idea) error = %v, want one naming the kind", err)
	}
}

func TestParseErrors(t *testing.T) {
	t.Run("not UTF-8", func(t *testing.T) {
		data := []byte("# 2026-11-22 Sunday\n\n- 09:00 fine\n- 10:00 bad \xff byte\n")
		_, err := Parse("days/2026/11/22.md", goldenDay, data)
		if err == nil || !strings.Contains(err.Error(), "days/2026/11/22.md:4:") {
			t.Fatalf("error = %v, want one naming days/2026/11/22.md:4", err)
		}
	})
	t.Run("over the size limit", func(t *testing.T) {
		data := bytes.Repeat([]byte("- 09:00 x\n"), MaxFileSize/10+1)
		_, err := Parse("big.md", goldenDay, data)
		if err == nil || !strings.Contains(err.Error(), "big.md") || !strings.Contains(err.Error(), "8 MiB") {
			t.Fatalf("error = %v, want one naming big.md and the limit", err)
		}
		path := filepath.Join(t.TempDir(), "22.md")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err = ParseFile(path, goldenDay)
		if err == nil || !strings.Contains(err.Error(), path) {
			t.Fatalf("ParseFile error = %v, want one naming %s", err, path)
		}
	})
	t.Run("missing file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "nope.md")
		_, err := ParseFile(path, goldenDay)
		if !os.IsNotExist(err) && !strings.Contains(err.Error(), path) {
			t.Fatalf("error = %v, want not-exist naming the path", err)
		}
	})
}

func TestParseHugeLine(t *testing.T) {
	long := strings.Repeat("word ", 1<<20/5)
	data := []byte("# 2026-11-22 Sunday\n\n- 09:00 " + long + "#end\n- 10:00 after the long line\n")
	day, err := Parse("long.md", goldenDay, data)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, data, day)
	if len(day.Entries) != 2 || day.Entries[1].Line != 4 || !slices.Equal(day.Entries[0].Tags, []string{"end"}) {
		t.Fatalf("got %d entries %+v", len(day.Entries), day.Entries[len(day.Entries)-1])
	}
	if got := len(day.Entries[0].Text); got != len(long)+len("#end") {
		t.Fatalf("long entry text is %d bytes, want %d", got, len(long)+4)
	}
}

func TestEntryIDStable(t *testing.T) {
	d := goldenDay
	a := string(NewEntryID(d, 9, 14, "Chose  Argon2\n over bcrypt.", 0))
	b := string(NewEntryID(d, 9, 14, "Chose Argon2 over bcrypt.", 1))
	if a != b {
		t.Fatalf("whitespace changed the id: %s vs %s", a, b)
	}
	if !strings.HasPrefix(a, "2026-11-22T09:14-") || len(a) != len("2026-11-22T09:14-")+12 {
		t.Fatalf("id %q is not shaped 2026-11-22T09:14-<12 hex>", a)
	}
	if string(NewEntryID(d, 9, 15, "Chose Argon2 over bcrypt.", 0)) == a {
		t.Fatal("the time does not change the id")
	}
	if string(NewEntryID(d, 9, 14, "chose Argon2 over bcrypt.", 0)) == a {
		t.Fatal("the text does not change the id")
	}
	if got := string(NewEntryID(d, 9, 14, "x", 2)); !strings.HasSuffix(got, "-2") {
		t.Fatalf("second id %q lacks -2", got)
	}
	if pd, ok := ParseEntryID(a); !ok || pd != d {
		t.Fatalf("ParseEntryID(%q) = %v, %v", a, pd, ok)
	}
	if _, ok := ParseEntryID("2026-11-22:L12"); ok {
		t.Fatal("a note id parsed as an entry id")
	}
	if ld, n, ok := ParseLineID(LineID(d, 12)); !ok || ld != d || n != 12 {
		t.Fatalf("ParseLineID(LineID(%s, 12)) = %s, %d, %v", d, ld, n, ok)
	}
	for _, bad := range []string{a, "2026-11-22:L0", "2026-11-22:Lx", "2026-13-01:L1", "2026-11-22"} {
		if _, _, ok := ParseLineID(bad); ok {
			t.Errorf("ParseLineID(%q) took it for a line id", bad)
		}
	}

	// Edits elsewhere in the file keep ids; duplicates get -2 in file order.
	before := "# t\n\n- 09:00 same\n- 10:00 other\n- 09:00 same\n"
	after := "# t\n\nA paragraph added above.\n\n- 09:00 same\n- 10:00 other  \n  \n- 09:00 same\n"
	d1, _ := Parse("a", d, []byte(before))
	d2, _ := Parse("b", d, []byte(after))
	var ids1, ids2 []string
	for _, e := range d1.Entries {
		ids1 = append(ids1, e.ID)
	}
	for _, e := range d2.Entries {
		ids2 = append(ids2, e.ID)
	}
	if !slices.Equal(ids1, ids2) || !strings.HasSuffix(ids1[2], "-2") || ids1[0]+"-2" != ids1[2] {
		t.Fatalf("ids moved with edits elsewhere: %q vs %q", ids1, ids2)
	}
}

// TestDocExample parses the example day of docs/dayfiles.md and checks what
// the text around it says about it.
func TestDocExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "dayfiles.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "## An example day\n\n```markdown\n")
	example, _, ok2 := strings.Cut(rest, "\n```\n")
	if !ok || !ok2 {
		t.Fatal("no example day in docs/dayfiles.md")
	}
	day, err := Parse("example", goldenDay, []byte(example+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range day.Entries {
		got = append(got, fmt.Sprintf("%s %s %v", e.Clock(), e.Kind, e.Tags))
	}
	want := []string{
		"09:14 decision [auth security]", "09:30 note [roadmap]", "10:02 fact []",
		"11:00 todo [ops/certs]", "14:00 event []",
	}
	if day.Title != "2026-11-22 Sunday" || !slices.Equal(got, want) || len(day.Notes) != 2 {
		t.Fatalf("title %q, entries %q, %d notes", day.Title, got, len(day.Notes))
	}
	if last := day.Entries[4].Text; !strings.Contains(last, "- 14:30 the demo crashed") {
		t.Fatalf("the nested 14:30 item is not part of the 14:00 entry: %q", last)
	}
}
