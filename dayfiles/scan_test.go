package dayfiles

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
)

// naiveLines is the obvious implementation Matcher.Lines must agree with.
func naiveLines(pattern string, regex bool, data string) []string {
	var out []string
	var re *regexp.Regexp
	if regex {
		re = regexp.MustCompile(pattern)
	}
	fold := strings.ToLower(pattern) == pattern
	for i, l := range strings.Split(data, "\n") {
		l = strings.TrimSuffix(l, "\r")
		var ok bool
		switch {
		case regex:
			ok = re.MatchString(l)
		case fold:
			ok = strings.Contains(strings.ToLower(l), pattern)
		default:
			ok = strings.Contains(l, pattern)
		}
		if ok {
			out = append(out, fmt.Sprintf("%d:%s", i+1, l))
		}
	}
	return out
}

func matcherLines(t *testing.T, pattern string, regex bool, data string) []string {
	t.Helper()
	m, err := NewMatcher(pattern, regex)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	m.Lines([]byte(data), func(n int, line []byte) bool {
		out = append(out, fmt.Sprintf("%d:%s", n, line))
		return true
	})
	return out
}

func TestMatcherLines(t *testing.T) {
	data := "# 2026-11-22 Sunday\r\n\r\n- 09:14 Chose ARGON2 over bcrypt. argon2 again\n- 10:00 Argon\n  argon2id is the variant\nlast line argon2"
	tests := []struct {
		pattern string
		regex   bool
	}{
		{"argon2", false}, {"Argon", false}, {"ARGON2", false}, {"a", false}, {"2", false},
		{"- 09", false}, {"argon2 again\n", false}, {"zzz", false}, {"#", false}, {"y\r", false},
		{`argon\d`, true}, {`(?i)^- \d\d:\d\d`, true}, {`$`, true}, {`Ar`, true},
	}
	for _, tt := range tests {
		got := matcherLines(t, tt.pattern, tt.regex, data)
		want := naiveLines(tt.pattern, tt.regex, data)
		if tt.pattern == "argon2 again\n" || tt.pattern == "y\r" || tt.pattern == "$" {
			continue // spans a line end: checked only for not panicking
		}
		if !slices.Equal(got, want) {
			t.Errorf("pattern %q: got %q, want %q", tt.pattern, got, want)
		}
	}
	// Non-ASCII patterns fold through the regexp engine.
	if got := matcherLines(t, "ünï", false, "a ÜNÏcode line\nnone\n"); !slices.Equal(got, []string{"1:a ÜNÏcode line"}) {
		t.Errorf("non-ASCII fold: %q", got)
	}
	// fn returning false stops the scan.
	m, _ := NewMatcher("a", false)
	calls := 0
	m.Lines([]byte("a\na\na\n"), func(int, []byte) bool { calls++; return false })
	if calls != 1 {
		t.Errorf("Lines went on after fn returned false: %d calls", calls)
	}
}

// TestMatcherRandom compares Lines with naiveLines on random text made of a
// few letters in both cases, where candidates of the rare byte abound.
func TestMatcherRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, alphabet := range []string{
		"aAbBzZ -\n",
		// Common letters only: a case-insensitive pattern goes through
		// pairIndex; `, @ and [ fold like letters there and must not match.
		"eEtTmM`@[{ -\n",
	} {
		matcherRandom(t, rng, alphabet)
	}
}

func matcherRandom(t *testing.T, rng *rand.Rand, alphabet string) {
	for i := range 2000 {
		var b strings.Builder
		for range rng.IntN(300) {
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		var p strings.Builder
		for range 1 + rng.IntN(4) {
			p.WriteByte(alphabet[rng.IntN(len(alphabet)-1)]) // no newline in patterns
		}
		pattern := p.String()
		if strings.TrimSpace(pattern) == "" {
			continue
		}
		got := matcherLines(t, pattern, false, b.String())
		want := naiveLines(pattern, false, b.String())
		if !slices.Equal(got, want) {
			t.Fatalf("case %d: pattern %q in %q: got %q, want %q", i, pattern, b.String(), got, want)
		}
	}
}

func TestNewMatcherErrors(t *testing.T) {
	for _, tt := range []struct {
		pattern string
		regex   bool
		want    string
	}{
		{"", false, "empty"},
		{strings.Repeat("x", MaxPattern+1), false, "over the limit"},
		{"\xff", false, "UTF-8"},
		{"(", true, "bad regex"},
	} {
		if _, err := NewMatcher(tt.pattern, tt.regex); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("NewMatcher(%.10q) = %v, want %q", tt.pattern, err, tt.want)
		}
	}
}

// writeCorpus writes days day files from first on, each holding lines
// entries whose text names its day and line, and returns the data dir.
func writeCorpus(t testing.TB, first date.Date, days, lines int) string {
	t.Helper()
	root := t.TempDir()
	for i := range days {
		d := first.AddDays(i)
		var b strings.Builder
		b.WriteString(Title(d) + "\n\n")
		for l := range lines {
			fmt.Fprintf(&b, "- %02d:%02d marker day%d entry%d\n", l%24, l%60, i, l)
		}
		p := Path(root, d)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestScanManyFiles scans more files than any chunking rounds to: every
// match comes back once, in order, with and without a limit.
func TestScanManyFiles(t *testing.T) {
	root := writeCorpus(t, date.MustParse("2025-01-01"), 400, 2)
	files, err := List(root, date.Range{}, nil)
	if err != nil || len(files) != 400 {
		t.Fatalf("List: %d files, %v", len(files), err)
	}
	m, _ := NewMatcher("entry1", false)
	for _, limit := range []int{0, 1, 3, 77, 399, 400, 401} {
		got, _, err := Scan(files, m, limit)
		if err != nil {
			t.Fatal(err)
		}
		want := 400
		if limit > 0 {
			want = min(limit, 400)
		}
		if len(got) != want {
			t.Fatalf("limit %d: %d matches, want %d", limit, len(got), want)
		}
		for i, s := range got {
			if s.File.Date != files[399-i].Date || s.Line != 4 {
				t.Fatalf("limit %d: match %d is %s:%d, want %s:4", limit, i, s.File.Date, s.Line, files[399-i].Date)
			}
		}
	}
}

func TestScanOrderAndLimit(t *testing.T) {
	first := date.MustParse("2026-10-30")
	root := writeCorpus(t, first, 7, 5)
	files, err := List(root, date.Range{}, nil)
	if err != nil || len(files) != 7 {
		t.Fatalf("List: %d files, %v", len(files), err)
	}
	m, _ := NewMatcher("MARKER", false) // upper case: case-sensitive, matches nothing
	got, read, err := Scan(files, m, 0)
	if err != nil || len(got) != 0 || read != 7 {
		t.Fatalf("case-sensitive: %d matches, %d read, %v", len(got), read, err)
	}
	m, _ = NewMatcher("marker", false)
	all, read, err := Scan(files, m, 0)
	if err != nil || len(all) != 35 || read != 7 {
		t.Fatalf("got %d matches from %d files, %v", len(all), read, err)
	}
	for i, s := range all {
		day, line := 6-i/5, 7-i%5 // newest day first, last line first
		want := fmt.Sprintf("day%d entry%d", day, line-3)
		if s.File.Date != first.AddDays(day) || s.Line != line || !strings.HasSuffix(s.Text, want) {
			t.Fatalf("match %d: %s:%d %q, want day %s line %d %q", i, s.File.Date, s.Line, s.Text, first.AddDays(day), line, want)
		}
	}
	for _, limit := range []int{1, 4, 5, 6, 11, 35, 36} {
		got, read, err := Scan(files, m, limit)
		if err != nil {
			t.Fatal(err)
		}
		n := min(limit, 35)
		if !slices.Equal(got, all[:n]) || read != (n+4)/5 {
			t.Fatalf("limit %d: %d matches from %d files", limit, len(got), read)
		}
	}
	// A file removed since List is skipped; an unreadable one is an error
	// that names it.
	if err := os.Remove(files[6].Path); err != nil {
		t.Fatal(err)
	}
	got, read, err = Scan(files, m, 0)
	if err != nil || len(got) != 30 || read != 6 {
		t.Fatalf("after a removal: %d matches, %d read, %v", len(got), read, err)
	}
	if err := os.Remove(files[3].Path); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(files[3].Path, 0o755); err != nil {
		t.Fatal(err)
	}
	got, _, err = Scan(files, m, 0)
	if err == nil || !strings.Contains(err.Error(), files[3].Path) || len(got) != 10 {
		t.Fatalf("unreadable file: %d matches, %v", len(got), err)
	}
	if got, read, err := Scan(nil, m, 3); err != nil || len(got) != 0 || read != 0 {
		t.Fatalf("no files: %v %d %v", got, read, err)
	}
}

// TestScanGrowingFile reads a file that grew after List: the size is a hint.
func TestScanGrowingFile(t *testing.T) {
	root := writeCorpus(t, goldenDay, 1, 2)
	files, _ := List(root, date.Range{}, nil)
	if _, err := Append(root, time.UTC, entryAt(23, 0, strings.Repeat("marker grows ", 500))); err != nil {
		t.Fatal(err)
	}
	m, _ := NewMatcher("marker", false)
	got, _, err := Scan(files, m, 0)
	if err != nil || len(got) != 3 || got[0].Line != 5 {
		t.Fatalf("got %d matches, first %+v, %v", len(got), got, err)
	}
}
