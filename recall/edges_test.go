package recall_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// TestWordWithDigitsIsFound: "argon" finds "Argon2" through the drill,
// as `find argon` does, and the word is marked in the snippet; a day
// that has the word as written ranks above one that has it with digits.
func TestWordWithDigitsIsFound(t *testing.T) {
	f := newFixture(t)
	f.day(t, "2025-06-01", "Switched password hashing to Argon2 #security", "Groceries")
	f.sums.add("2025-06-01", "Switched password hashing to Argon2; groceries.")
	f.day(t, "2025-06-02", "Read about argon, the noble gas", "Long walk")
	f.sums.add("2025-06-02", "Read about argon, the noble gas; a long walk.")
	f.day(t, "2025-06-03", "Lunch with Julia at the noodle place")
	f.sums.add("2025-06-03", "Lunch with Julia at the noodle place.")
	f.sums.add("2025-06", "Password hashing moved to Argon2; argon the gas; lunch with Julia.")
	f.sync(t)
	r := f.recall(t, daybook.RecallRequest{Query: "argon", Level: "entry"})
	var periods []string
	for _, res := range r.Results {
		periods = append(periods, res.Period)
	}
	if len(r.Results) != 2 || r.Results[0].Period != "2025-06-02" || r.Results[1].Period != "2025-06-01" {
		t.Fatalf("recall argon (method %s): %v, want 2025-06-02 then 2025-06-01", r.Method, periods)
	}
	if !strings.Contains(r.Results[1].Snippet, "**Argon2**") {
		t.Errorf("snippet %q does not mark Argon2", r.Results[1].Snippet)
	}
	// The linear scan (no summaries) finds it too.
	g := newFixture(t)
	g.day(t, "2025-06-01", "Switched password hashing to Argon2 #security")
	g.sync(t)
	if r := g.recall(t, daybook.RecallRequest{Query: "argon"}); len(r.Results) != 1 || !strings.Contains(r.Results[0].Snippet, "**Argon2**") {
		t.Fatalf("linear recall argon (method %s): %+v", r.Method, r.Results)
	}
}

// TestNoResultScoresZero: a result whose score is 0 matched nothing (an
// entry found by the offline vectors alone, beside its day's entry that
// has the word); none is returned, and every month or year returned
// scores above 0.
func TestNoResultScoresZero(t *testing.T) {
	f := newFixture(t)
	buildPyramid(t, f)
	for _, q := range []string{"kayak", "used kayak from Lena", "tax receipts", "billing migration", "garden fence"} {
		for _, level := range []string{"", "entry", "day"} {
			r := f.recall(t, daybook.RecallRequest{Query: q, Level: level, Limit: 30, Explain: true})
			for _, res := range r.Results {
				if res.Score <= 0 || res.Score < 0.0005 {
					t.Errorf("recall %q --level %q: %s %s scores %.4f (%+v)", q, level, res.Level, res.ID, res.Score, res.Explain)
				}
			}
		}
	}
}

// TestLevelEntryLabelsEntries: --level entry returns results labelled
// entry, free-text lines among them.
func TestLevelEntryLabelsEntries(t *testing.T) {
	f := newFixture(t)
	buildPyramid(t, f)
	f.sums.add("2025-06-20", "Notes on the kayak club.")
	writeText(t, f.root, "2025-06-20", "Free text about the kayak club, outside any entry.\n")
	f.sync(t)
	for _, mode := range []string{"", "bm25", "linear"} {
		r := f.recall(t, daybook.RecallRequest{Query: "kayak club", Level: "entry", Mode: mode, Limit: 20})
		if len(r.Results) == 0 {
			t.Fatalf("mode %q: no results", mode)
		}
		found := false
		for _, res := range r.Results {
			if res.Level != "entry" {
				t.Errorf("mode %q: %s labelled %q, asked for entries", mode, res.ID, res.Level)
			}
			found = found || strings.Contains(res.Snippet, "club")
		}
		if !found {
			t.Errorf("mode %q: the free text is not among the results", mode)
		}
	}
}

// writeText writes a day file that holds free text only.
func writeText(t *testing.T, root, day, text string) {
	t.Helper()
	d := date.MustParse(day)
	p := dayfiles.Path(root, d)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(dayfiles.Title(d)+"\n\n"+text), 0o644); err != nil {
		t.Fatal(err)
	}
}
