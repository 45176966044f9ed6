package gen

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/daybooktest"
)

func TestPlantedFacts(t *testing.T) {
	if testing.Short() {
		t.Skip("generates five years; the full suite runs it")
	}
	const years = 5
	dir, st := write(t, Options{Years: years, Seed: 11, End: testEnd})
	facts, err := ReadFacts(filepath.Join(dir, FactsFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(facts) != st.Facts || len(facts) < 50 {
		t.Fatalf("%d facts, stats say %d, want at least 50 for %d years", len(facts), st.Facts, years)
	}
	files, err := dayfiles.List(dir, date.Range{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	content := make(map[string]string, len(files)) // day -> lower-cased file
	for _, f := range files {
		b, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		content[f.Date.String()] = strings.ToLower(string(b))
	}

	perYear := map[int]int{}
	repeated, timed := 0, 0
	for _, f := range facts {
		key := strings.ToLower(f.Key)
		if !strings.Contains(strings.ToLower(f.Q), key) || !strings.Contains(strings.ToLower(f.Text), key) {
			t.Errorf("key %q is not in both question %q and text %q", f.Key, f.Q, f.Text)
		}
		if strings.Contains(strings.ToLower(f.Q), strings.ToLower(f.Text)) {
			t.Errorf("question %q repeats the fact", f.Q)
		}
		for _, d := range f.Days {
			day, err := dayfiles.ParseFile(dayfiles.Path(dir, date.MustParse(d)), date.MustParse(d))
			if err != nil {
				t.Fatalf("fact %q: %v", f.Q, err)
			}
			found := false
			for _, e := range day.Entries {
				if strings.Contains(e.Text, f.Text) && string(e.Kind) == f.Kind {
					found = true
				}
			}
			if !found {
				t.Errorf("%s holds no %s entry with %q", d, f.Kind, f.Text)
			}
		}
		// Rare: the key is on the fact's days and nowhere else.
		for d, c := range content {
			if strings.Contains(c, key) && !contains(f.Days, d) {
				t.Errorf("key %q of fact on %v also appears on %s", f.Key, f.Days, d)
			}
		}
		perYear[date.MustParse(f.Days[0]).Year]++
		if len(f.Days) > 1 {
			repeated++
		}
		if f.When != "" {
			timed++
			if !strings.Contains(f.Q, f.When[1:]) {
				t.Errorf("question %q lacks its time %q", f.Q, f.When)
			}
			checkWhen(t, f.When, date.MustParse(f.Days[0]), testEnd)
		}
	}
	if len(perYear) < years {
		t.Errorf("facts fall in %d calendar years, want at least %d: %v", len(perYear), years, perYear)
	}
	if repeated == 0 || repeated > len(facts)/2 {
		t.Errorf("%d of %d facts repeat on later days", repeated, len(facts))
	}
	if timed < len(facts)/6 || timed > len(facts)/4 {
		t.Errorf("%d of %d questions carry a time, want about a fifth", timed, len(facts))
	}
}

// checkWhen checks that phrase names the month of d as seen from end.
func checkWhen(t *testing.T, phrase string, d, end date.Date) {
	t.Helper()
	if m, ok := strings.CutPrefix(phrase, "last "); ok {
		prev := end.MonthOf()
		for {
			prev = date.Date{Year: prev.Year, Month: prev.Month, Day: 1}.AddDays(-1).MonthOf()
			if prev.Month.String() == m {
				break
			}
		}
		if d.MonthOf() != prev {
			t.Errorf("%q for %s with end %s: last %s is %s", phrase, d, end, m, prev)
		}
		return
	}
	if want := "in " + d.Month.String() + " " + d.String()[:4]; phrase != want {
		t.Errorf("phrase %q for %s, want %q", phrase, d, want)
	}
}

func TestTemporalPhrase(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	end := date.MustParse("2026-11-21")
	for _, tc := range []struct {
		day  string
		last bool // may say "last"
	}{
		{"2026-06-10", true}, {"2025-11-03", true}, {"2025-12-01", true},
		{"2026-11-02", false}, {"2025-06-10", false}, {"2024-11-30", false},
	} {
		d := date.MustParse(tc.day)
		sawLast := false
		for range 20 {
			p := temporalPhrase(d, end, r)
			checkWhen(t, p, d, end)
			sawLast = sawLast || strings.HasPrefix(p, "last ")
		}
		if sawLast != tc.last {
			t.Errorf("%s: said last: %v, want %v", tc.day, sawLast, tc.last)
		}
	}
}

// TestFactKeysAreRare checks every key of the bank against the filler
// vocabulary and the other facts, so that any seed plants rare words.
func TestFactKeysAreRare(t *testing.T) {
	var filler []string
	for _, list := range [][]string{tagVocab, firstNames, codenames, places, metrics, verbs, preps, targets,
		reasons, comments, moods, weather, cmds, continuations, statuses, hows, preasons} {
		filler = append(filler, list...)
	}
	for _, tp := range topics {
		filler = append(filler, tp.name)
		filler = append(filler, tp.components...)
	}
	for _, m := range []map[dayfiles.Kind][]string{workTemplates, personalTemplates} {
		for _, k := range dayfiles.Kinds {
			filler = append(filler, m[k]...)
		}
	}
	all := strings.ToLower(strings.Join(filler, "\n"))
	n := 0
	for ti, ft := range factBank {
		for ri, row := range ft.rows {
			n++
			key := strings.ToLower(row[ft.key])
			if strings.Contains(all, key) {
				t.Errorf("key %q is in the filler vocabulary", key)
			}
			for tj, other := range factBank {
				for rj, orow := range other.rows {
					if (ti != tj || ri != rj) && strings.Contains(strings.ToLower(fill(other.text, orow)), key) {
						t.Errorf("key %q is also in fact %q", key, fill(other.text, orow))
					}
				}
			}
		}
	}
	if n < FactsPerYear*12 {
		t.Errorf("the bank holds %d facts, want at least %d", n, FactsPerYear*12)
	}
}

func TestImportLines(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a year and appends it all again; the full suite runs it")
	}
	var jl bytes.Buffer
	dir, st := write(t, Options{Years: 1, Seed: 5, End: testEnd, JSONL: &jl})
	// Every line is an import line, and appending them all to an empty data
	// dir gives the very entries the generated files hold.
	var entries []dayfiles.NewEntry
	sc := bufio.NewScanner(&jl)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var in daybook.ImportLine
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&in); err != nil {
			t.Fatalf("line %d: %v: %s", n, err, sc.Text())
		}
		at, err := date.ParseTime(in.At, time.Time{}, time.UTC)
		if err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		k, err := dayfiles.ParseKind(in.Kind)
		if err != nil || in.Kind == "" {
			t.Fatalf("line %d: kind %q: %v", n, in.Kind, err)
		}
		e := dayfiles.NewEntry{At: at, Kind: k, Text: in.Text, Tags: in.Tags}
		if err := e.Validate(); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		entries = append(entries, e)
	}
	if len(entries) != st.Entries {
		t.Fatalf("%d import lines for %d entries", len(entries), st.Entries)
	}
	imported := t.TempDir()
	if _, err := daybooktest.AppendMany(imported, time.UTC, entries); err != nil {
		t.Fatal(err)
	}
	want, got := entryIDs(t, dir), entryIDs(t, imported)
	if len(want) != len(got) {
		t.Fatalf("imported %d entries, generated %d", len(got), len(want))
	}
	for i := range want {
		if want[i] != got[i] {
			t.Fatalf("entry %d: imported %s, generated %s", i, got[i], want[i])
		}
	}
}

func entryIDs(t *testing.T, dir string) []string {
	t.Helper()
	files, err := dayfiles.List(dir, date.Range{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, f := range files {
		day, err := dayfiles.ParseFile(f.Path, f.Date)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range day.Entries {
			ids = append(ids, e.ID)
		}
	}
	return ids
}
