package gen

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

var testEnd = date.MustParse("2026-11-21")

// write generates a corpus in a fresh temp dir and returns the dir.
func write(t testing.TB, o Options) (string, Stats) {
	t.Helper()
	dir := t.TempDir()
	st, err := Write(dir, o)
	if err != nil {
		t.Fatalf("Write(%+v): %v", o, err)
	}
	return dir, st
}

// tree reads every file under dir, by slash path.
func tree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestDeterministic(t *testing.T) {
	o := Options{Years: 1, Seed: 42, End: testEnd}
	var j1, j2 bytes.Buffer
	o.JSONL = &j1
	d1, s1 := write(t, o)
	o.JSONL = &j2
	d2, s2 := write(t, o)
	if s1 != s2 {
		t.Errorf("stats differ: %+v and %+v", s1, s2)
	}
	if !bytes.Equal(j1.Bytes(), j2.Bytes()) {
		t.Error("import lines differ between two runs with the same options")
	}
	t1, t2 := tree(t, d1), tree(t, d2)
	if len(t1) != len(t2) || len(t1) != s1.Days+1 {
		t.Fatalf("runs wrote %d and %d files, stats say %d days and a facts file", len(t1), len(t2), s1.Days)
	}
	for name, b := range t1 {
		if !bytes.Equal(b, t2[name]) {
			t.Errorf("%s differs between two runs with the same options", name)
		}
	}

	for _, other := range []Options{{Years: 1, Seed: 43, End: testEnd}, {Years: 1, Seed: 42, End: testEnd.AddDays(-1)}} {
		d3, _ := write(t, other)
		t3 := tree(t, d3)
		same := 0
		for name, b := range t3 {
			if bytes.Equal(b, t1[name]) {
				same++
			}
		}
		if same > len(t3)/10 {
			t.Errorf("%+v: %d of %d files are identical to seed 42's", other, same, len(t3))
		}
	}
}

func TestDayFilesParse(t *testing.T) {
	const years = 2
	dir, st := write(t, Options{Years: years, Seed: 7, End: testEnd})
	files, err := dayfiles.List(dir, date.Range{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != st.Days || st.Days < 300*years || st.Days > 366*years {
		t.Fatalf("listed %d day files, stats say %d, want about %d", len(files), st.Days, 345*years)
	}
	if first := files[0].Date; first != st.From && first.Before(st.From) {
		t.Errorf("first file %s is before the range start %s", first, st.From)
	}
	if last := files[len(files)-1].Date; last != testEnd {
		t.Errorf("last file is %s, want the end date %s", last, testEnd)
	}
	kinds := map[dayfiles.Kind]int{}
	tags := map[string]int{}
	entries, lines, notes, gaps := 0, 0, 0, 0
	for i, f := range files {
		if i > 0 && f.Date.AddDays(-8).After(files[i-1].Date) {
			gaps++ // a vacation of a week or more
		}
		day, err := dayfiles.ParseFile(f.Path, f.Date)
		if err != nil {
			t.Fatal(err)
		}
		if want := dayfiles.Title(f.Date)[2:]; day.Title != want {
			t.Errorf("%s: title %q, want %q", f.Path, day.Title, want)
		}
		data, _ := os.ReadFile(f.Path)
		n := bytes.Count(data, []byte("\n"))
		lo, hi := WeekdayMinLines, WeekdayMaxLines
		if wd := f.Date.Weekday(); wd == 0 || wd == 6 {
			lo, hi = WeekendMinLines, WeekendMaxLines
		}
		if n < lo || n > hi {
			t.Errorf("%s: %d lines, want %d to %d", f.Path, n, lo, hi)
		}
		lines += n
		prev := -1
		for _, e := range day.Entries {
			kinds[e.Kind]++
			for _, tag := range e.Tags {
				tags[tag]++
			}
			if m := e.Hour*60 + e.Minute; m <= prev {
				t.Errorf("%s:%d: time %s does not come after the entry before", f.Path, e.Line, e.Clock())
			} else {
				prev = m
			}
			if strings.Contains(e.Text, "```") || strings.Contains(e.Text, "- [") || strings.Contains(e.Text, "##") {
				t.Errorf("%s:%d: a note ran into entry %q", f.Path, e.Line, e.Text)
			}
		}
		for _, nt := range day.Notes {
			if isEntryHead(nt.Text) {
				t.Errorf("%s:%d: entry parsed as note: %q", f.Path, nt.Line, nt.Text)
			}
		}
		entries += len(day.Entries)
		notes += len(day.Notes)
	}
	if entries != st.Entries || lines != st.Lines {
		t.Errorf("files hold %d entries in %d lines, stats say %d in %d", entries, lines, st.Entries, st.Lines)
	}
	for _, k := range dayfiles.Kinds {
		if k == dayfiles.KindChat { // a chat's turns, written by the memory proxy: not a journal's
			continue
		}
		if kinds[k] < entries/50 {
			t.Errorf("only %d %s entries of %d", kinds[k], k, entries)
		}
	}
	if notes < st.Days/5 {
		t.Errorf("only %d free-text notes in %d days", notes, st.Days)
	}
	if gaps < years {
		t.Errorf("%d vacations of a week or more in %d years", gaps, years)
	}
	for tag := range tags {
		if !contains(tagVocab, tag) {
			t.Errorf("tag %q is not in the vocabulary", tag)
		}
	}
	lo, hi := entries, 0
	for _, n := range tags {
		lo, hi = min(lo, n), max(hi, n)
	}
	if len(tags) < 30 || hi < 10*lo {
		t.Errorf("tags should be many and skewed: %d distinct, counts from %d to %d", len(tags), lo, hi)
	}
}

// isEntryHead reports whether s starts like an entry, "- 09:14".
func isEntryHead(s string) bool {
	return len(s) >= 7 && strings.ContainsRune("-*+", rune(s[0])) && s[1] == ' ' &&
		s[2] >= '0' && s[2] <= '9' && (s[3] == ':' || s[4] == ':')
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestPeopleAndProjectsComeAndGo(t *testing.T) {
	p := newPlan(Options{Years: 5, Seed: 3, End: testEnd})
	first, _ := p.around(0)
	last, _ := p.around(len(p.days) - 1)
	stayed := 0
	for _, a := range first {
		for _, b := range last {
			if a.name == b.name {
				stayed++
			}
		}
	}
	if len(first) < 5 || len(last) < 5 || stayed > len(first)/2 {
		t.Errorf("%d people at the start, %d at the end, %d of them stayed all five years", len(first), len(last), stayed)
	}
	for i := 0; i < len(p.days); i += 30 {
		_, pj := p.around(i)
		if len(pj) == 0 || len(pj) > 8 {
			t.Errorf("day %s has %d active projects", p.days[i].date, len(pj))
		}
	}
}

func TestWriteRefusesUsedDir(t *testing.T) {
	dir := t.TempDir()
	mine := dayfiles.Path(dir, testEnd)
	if err := os.MkdirAll(filepath.Dir(mine), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mine, []byte("# mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Write(dir, Options{Years: 1, Seed: 1, End: testEnd})
	if err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("Write into a dir with day files: %v, want a not-empty error", err)
	}
	if b, _ := os.ReadFile(mine); string(b) != "# mine\n" {
		t.Errorf("existing day file changed to %q", b)
	}

	dir = t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FactsFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(dir, Options{Years: 1, Seed: 1, End: testEnd}); err == nil || !strings.Contains(err.Error(), FactsFile) {
		t.Fatalf("Write into a dir with facts: %v, want an error naming %s", err, FactsFile)
	}
}

// gen makes its data dir 0700 like the rest of daybook, so that doctor has
// nothing to warn about.
func TestWriteMakesAPrivateDataDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fresh", "data")
	if _, err := Write(dir, Options{Years: 1, Seed: 1, End: testEnd}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o700 {
		t.Errorf("data dir mode %o, want 700", perm)
	}
}

func TestOptionsValidate(t *testing.T) {
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{Years: 0, End: testEnd}, "years is 0"},
		{Options{Years: MaxYears + 1, End: testEnd}, "years is 51"},
		{Options{Years: 1}, "no end date"},
	} {
		if err := tc.o.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate(%+v) = %v, want %q", tc.o, err, tc.want)
		}
	}
}
