package dayfiles

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// sameParse parses data with the fast path and with goldmark alone, fails
// t when the two Days (or errors) differ, and returns the line from which
// the fast path handed over to goldmark (0: it read the whole file).
func sameParse(t testing.TB, data []byte) (rest int) {
	t.Helper()
	want, werr := parse("f.md", goldenDay, data, false)
	got, gerr := parse("f.md", goldenDay, data, true)
	if fmt.Sprint(werr) != fmt.Sprint(gerr) {
		t.Fatalf("errors differ on %q: goldmark %v, fast %v", data, werr, gerr)
	}
	if werr != nil {
		return 1
	}
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("fast parse differs on %q:\n%s", data, diffDays(want, got))
	}
	if len(data) == 0 {
		return 0
	}
	_, rest = fastBlocks(newLineIndex(data))
	return rest
}

// diffDays describes the first difference between want and got.
func diffDays(want, got *Day) string {
	if want.Title != got.Title {
		return fmt.Sprintf("title %q, want %q", got.Title, want.Title)
	}
	for i := range max(len(want.Entries), len(got.Entries)) {
		var w, g Entry
		if i < len(want.Entries) {
			w = want.Entries[i]
		}
		if i < len(got.Entries) {
			g = got.Entries[i]
		}
		if !reflect.DeepEqual(w, g) {
			return fmt.Sprintf("entry %d:\n got  %+v\n want %+v", i, g, w)
		}
	}
	for i := range max(len(want.Notes), len(got.Notes)) {
		var w, g Note
		if i < len(want.Notes) {
			w = want.Notes[i]
		}
		if i < len(got.Notes) {
			g = got.Notes[i]
		}
		if w != g {
			return fmt.Sprintf("note %d:\n got  %+v\n want %+v", i, g, w)
		}
	}
	return "same entries and notes, other fields differ"
}

func TestFastParseGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "parse", "*.md"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	fast := 0
	for _, in := range inputs {
		data, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		if rest := sameParse(t, data); rest != 1 {
			fast++
		}
	}
	if fast == 0 {
		t.Fatalf("the fast path read none of the %d golden files", len(inputs))
	}
	t.Logf("%d of %d golden files read at least in part by the fast path", fast, len(inputs))
}

// TestFastParseCases covers the borders of the fast path: lines it must
// hand over to goldmark, and where it must hand over from.
func TestFastParseCases(t *testing.T) {
	for _, c := range []struct {
		name, data string
		rest       int // the line goldmark takes over from
	}{
		{"clean", "# 2026-11-22 Sunday\n\n- 09:14 a #x\n  more\n\n  after blank\n- 9:05 [todo] b\n", 0},
		{"no final newline", "- 09:14 a\n  b", 0},
		{"blank lines only", "\n  \n\n", 0},
		{"nested items", "- 09:14 a\n  - 14:30 nested\n    deeper\n  ```\n  fence left open\n- 10:00 b\n", 0},
		{"lazy line", "- 09:14 a\nlazy\n- 10:00 b\n", 1},
		{"paragraph after entries", "- 09:14 a\n- 10:00 b\n  c\n\nPara\n- 11:00 c\n", 2},
		{"heading after title", "# t\n## h\n- 09:00 a\n", 1},
		{"second title", "- 09:00 a\n# t\n", 1},
		{"fence at the margin", "- 09:00 a\n- 10:00 b\n```\n- 11:00 in code\n", 2},
		{"indent of one", "- 09:00 a\n - 10:00 b\n", 1},
		{"tab indent", "- 09:00 a\n- 10:00 b\n\tc\n", 2},
		{"crlf", "- 09:00 a\r\n", 1},
		{"bom", "\uFEFF- 09:00 a\n", 1},
		{"front matter", "---\na: b\n---\n- 09:00 a\n", 1},
		{"not a time", "- 09:00 a\n- 24:00 b\n", 1},
		{"star bullet", "- 09:00 a\n* 10:00 b\n", 1},
		{"indented before entries", "# t\n  x\n- 09:00 a\n", 1},
		{"empty nested item", "- 09:00 a\n- 10:00 b\n  -\n\n  c\n", 2},
		{"empty ordered item", "- 09:00 a\n  1.\n\n  c\n", 1},
		{"link definition", "- 09:00 a\n  - [x]: /u\n\n\n  c\n", 1},
		{"control byte", "- 09:00 a\n- 10:00 b\x0c\n", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			if rest := sameParse(t, []byte(c.data)); rest != c.rest {
				t.Errorf("goldmark takes over from line %d, want %d", rest, c.rest)
			}
		})
	}
}

// randomDay returns a day file made of lines that are, or are close to,
// what the fast path reads: entry lines, continuation lines holding
// markdown of every kind, and lines at the margin it must hand over on.
func randomDay(rng *rand.Rand) []byte {
	margin := []string{
		"- 09:14 text #tag", "- 9:05 [todo] x", "- 23:59", "- 12:00 [misc] y", "- 24:00 not a time", "- 09:14pm",
		"- ", "-", "* 09:00 star", "+ 09:00 plus", " - 09:00 one space", "   - 09:00 three", "1. 09:00 ordered",
		"para", "## heading", "# title", "```", "~~~", "<!--", "-->", "<div>", "> - 09:00 quoted", "---", "***",
		"- - -", "[a]: /u", "\t- 09:00 tab", "- 09:00 crlf\r", "===", "    code", "- 09:00\ttab after",
	}
	indented := []string{
		"  text", "  - sub", "  - 14:30 sub", "  -", "  - ", "  *", "  1.", "  2)", "  ```", "  ~~~", "  ````",
		"    code", "      deep code", "  <div>", "  <!--", "  -->", "  > quote", "  > -", "  [a]: /u",
		"  - [a]: /u", "  ===", "  ---", "  * * *", "  # heading", "  \ttab", "\t\ttabs", "  a\tb", "  ]: x",
		"   - three", "  1. one", "  - - -", "  <pre>", "  </pre>", "  x -", "  123.", "  #tag",
	}
	var b strings.Builder
	if rng.IntN(2) == 0 {
		b.WriteString("# 2026-11-22 Sunday\n")
	}
	if rng.IntN(4) > 0 {
		b.WriteString("- 08:00 first\n")
	}
	for range 1 + rng.IntN(25) {
		switch r := rng.IntN(20); {
		case r < 6:
			fmt.Fprintf(&b, "- %02d:%02d entry %d\n", rng.IntN(24), rng.IntN(60), rng.IntN(3))
		case r < 12:
			b.WriteString(indented[rng.IntN(len(indented))] + "\n")
		case r < 16:
			b.WriteString(strings.Repeat(" ", rng.IntN(3)) + "\n")
		case r < 19:
			b.WriteString("  continued\n")
		default:
			b.WriteString(margin[rng.IntN(len(margin))] + "\n")
		}
	}
	s := b.String()
	if rng.IntN(4) == 0 {
		s = strings.TrimSuffix(s, "\n")
	}
	return []byte(s)
}

func TestFastParseRandom(t *testing.T) {
	n := 30000
	if testing.Short() {
		n = 3000
	}
	rng := rand.New(rand.NewPCG(5, 8))
	whole, part := 0, 0
	for range n {
		switch rest := sameParse(t, randomDay(rng)); {
		case rest == 0:
			whole++
		case rest > 1:
			part++
		}
	}
	t.Logf("%d random days: %d read whole by the fast path, %d in part, %d by goldmark alone", n, whole, part, n-whole-part)
	if whole < n/10 || part < n/10 {
		t.Fatalf("the random days exercise the fast path too little: %d whole, %d in part of %d", whole, part, n)
	}
}

// FuzzFastParse checks that the fast path and goldmark give the same Day
// for any content.
func FuzzFastParse(f *testing.F) {
	inputs, _ := filepath.Glob(filepath.Join("testdata", "parse", "*.md"))
	for _, in := range inputs {
		if data, err := os.ReadFile(in); err == nil {
			f.Add(data)
		}
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for range 40 {
		f.Add(randomDay(rng))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !utf8.Valid(data) {
			return
		}
		// A parse that never ends would stall the fuzzer without a report:
		// panic instead, so that the input is kept as a crasher.
		watchdog := time.AfterFunc(20*time.Second, func() {
			panic(fmt.Sprintf("parsing %d bytes took over 20s: %q", len(data), data[:min(len(data), 300)]))
		})
		defer watchdog.Stop()
		sameParse(t, data)
	})
}

// TestAppendCleanSame checks appendClean, which does not parse the old
// content, against appendChecked, which parses it with each separator: the
// same bytes to write and the same new entries, for random days and new
// entries that repeat old ones (the "-2" ids).
func TestAppendCleanSame(t *testing.T) {
	n := 5000
	if testing.Short() {
		n = 500
	}
	rng := rand.New(rand.NewPCG(9, 9))
	clean, repeats := 0, 0
	for i := range n {
		old := randomDay(rng)
		if i%5 == 0 {
			old = benchDay(1 + rng.IntN(20))
		}
		day, err := Parse("f.md", goldenDay, old)
		if err != nil {
			t.Fatal(err)
		}
		var batch []NewEntry
		for range 1 + rng.IntN(3) {
			e := checkedEntry(rng, "n", i)
			if len(day.Entries) > 0 && rng.IntN(2) == 0 {
				o := day.Entries[rng.IntN(len(day.Entries))]
				e = NewEntry{At: goldenDay.At(o.Hour, o.Minute, time.UTC), Kind: o.Kind, Text: o.Text}
			}
			if e.Validate() == nil {
				batch = append(batch, e)
			}
		}
		if len(batch) == 0 {
			continue
		}
		var chunk strings.Builder
		for _, e := range batch {
			chunk.WriteString(e.Format(time.UTC))
		}
		want, err := Parse("f.md", goldenDay, []byte(chunk.String()))
		if err != nil || len(want.Entries) != len(batch) {
			t.Fatalf("chunk %q: %v", chunk.String(), err)
		}
		add, news, ok := appendClean(old, chunk.String(), want)
		if !ok {
			continue
		}
		clean++
		for _, e := range news {
			if strings.Count(e.ID, "-") > 3 { // 2026-11-22T09:14-3fa2b1c4d5e6-2
				repeats++
			}
		}
		wantAdd, wantNews, err := appendChecked("f.md", goldenDay, old, chunk.String(), want)
		if err != nil {
			t.Fatalf("appending %q to %q: %v", chunk.String(), old, err)
		}
		if add != wantAdd || !reflect.DeepEqual(news, wantNews) {
			t.Fatalf("appending %q to %q:\nclean   %q %+v\nchecked %q %+v", chunk.String(), old, add, news, wantAdd, wantNews)
		}
	}
	t.Logf("%d of %d appends took the clean path, %d new entries repeat an old one", clean, n, repeats)
	if clean < n/10 || repeats == 0 {
		t.Fatalf("only %d of %d appends took the clean path", clean, n)
	}
}
