package recall

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// writeDays writes day files under a new data dir: day -> content after the title.
func writeDays(t testing.TB, days map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for d, body := range days {
		day := date.MustParse(d)
		p := dayfiles.Path(root, day)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(dayfiles.Title(day)+"\n\n"+body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

var linearDays = map[string]string{
	"2025-03-03": "- 09:10 [decision] Chose Argon2 over bcrypt for password hashing. #auth\n" +
		"- 11:00 Lunch with Maria.\n",
	"2025-03-04": "- 10:00 Started the database migration plan with Tomás.\n" +
		"  Postgres 16 is the target; the migration window is a Sunday.\n" +
		"- 15:30 [todo] Review the backup script.\n",
	"2025-03-05": "Free text about the migration, outside any entry.\n\n" +
		"- 08:00 Coffee. Read about database indexes.\n",
	"2025-04-10": "- 09:00 Migrating the billing tables went fine.\n" +
		"- 10:00 [event] Database meetup in town.\n",
	"2025-05-01": "- 09:00 Database backup restored in a test.\n",
	"2025-05-02": "- 09:00 Database backup restored in a test.\n",
}

func TestLinearRanking(t *testing.T) {
	root := writeDays(t, linearDays)
	ctx := context.Background()

	res, err := Linear(ctx, root, "postgres migration", date.Range{}, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) == 0 {
		t.Fatal("no results")
	}
	// The entry holding both terms, on two of its lines, comes first, as the entry.
	top := res[0]
	day, err := dayfiles.ParseFile(dayfiles.Path(root, date.MustParse("2025-03-04")), date.MustParse("2025-03-04"))
	if err != nil {
		t.Fatal(err)
	}
	want := daybook.RecallResult{ID: day.Entries[0].ID, Level: "entry", Period: "2025-03-04", Path: "days/2025/03/04.md", Line: 3}
	if top.ID != want.ID || top.Level != want.Level || top.Period != want.Period || top.Path != want.Path || top.Line != want.Line {
		t.Errorf("top = %+v; want %+v", top, want)
	}
	if !strings.Contains(top.Snippet, "**migration**") || !strings.Contains(top.Snippet, "**Postgres**") {
		t.Errorf("snippet %q does not mark the terms", top.Snippet)
	}
	// The free-text line is a line result; "Migrating" is found by its stem.
	var gotLine, gotStem bool
	for _, r := range res {
		if r.ID == "2025-03-05:L3" && r.Level == "line" && r.Line == 3 && strings.Contains(r.Snippet, "**migration**") {
			gotLine = true
		}
		if r.Period == "2025-04-10" && strings.Contains(r.Snippet, "**Migrating**") {
			gotStem = true
		}
		if r.Score <= 0 || r.Score > top.Score {
			t.Errorf("result %s scores %v, top %v", r.ID, r.Score, top.Score)
		}
	}
	if !gotLine || !gotStem {
		t.Errorf("free-text line found: %v, stemmed word found: %v; results %+v", gotLine, gotStem, res)
	}
}

func TestLinearRareTermsWeighMore(t *testing.T) {
	root := writeDays(t, linearDays)
	// "database" is in four files, "argon2" in one: the Argon2 entry wins
	// although other entries hold a term too.
	res, err := Linear(context.Background(), root, "argon2 database", date.Range{}, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 3 {
		t.Fatalf("got %d results, want the limit of 3", len(res))
	}
	if res[0].Period != "2025-03-03" || !strings.Contains(res[0].Snippet, "**Argon2**") {
		t.Errorf("top = %+v; want the Argon2 decision", res[0])
	}
	if !strings.HasPrefix(res[0].Snippet, "09:10 [decision] ") {
		t.Errorf("snippet %q lacks the time and kind", res[0].Snippet)
	}
	// Equal scores: newest first.
	if res[1].Period != "2025-05-02" || res[2].Period != "2025-05-01" || res[1].Score != res[2].Score {
		t.Errorf("ties = %s %v, %s %v; want 2025-05-02 then 2025-05-01 with equal scores", res[1].Period, res[1].Score, res[2].Period, res[2].Score)
	}
}

func TestLinearRange(t *testing.T) {
	root := writeDays(t, linearDays)
	r := date.Range{From: date.MustParse("2025-04-01"), To: date.MustParse("2025-04-30")}
	res, err := Linear(context.Background(), root, "database", r, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Period != "2025-04-10" || res[0].Line != 4 {
		t.Errorf("results in April = %+v; want the one April database entry on line 4", res)
	}
}

// A query of stop words only (what is left of "what was I doing last March?")
// returns the newest entries of the range.
func TestLinearNoTerms(t *testing.T) {
	root := writeDays(t, linearDays)
	r := date.Month{Year: 2025, Month: time.March}.Range()
	res, err := Linear(context.Background(), root, "what was I doing?", r, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range res {
		got = append(got, fmt.Sprintf("%s:%d", x.Period, x.Line))
	}
	want := "2025-03-05:5 2025-03-04:5 2025-03-04:3"
	if strings.Join(got, " ") != want {
		t.Errorf("newest entries = %v; want %s", got, want)
	}
}

func TestLinearNothing(t *testing.T) {
	root := writeDays(t, linearDays)
	for _, q := range []string{"zeppelin", "bcrypts and zebras"} {
		res, err := Linear(context.Background(), root, q, date.Range{}, 10, nil)
		if err != nil || (q == "zeppelin" && len(res) != 0) {
			t.Errorf("Linear(%q) = %v, %v; want nothing", q, res, err)
		}
	}
	// A data dir without days/ is empty, not an error.
	res, err := Linear(context.Background(), t.TempDir(), "anything", date.Range{}, 10, nil)
	if err != nil || len(res) != 0 {
		t.Errorf("empty data dir: %v, %v", res, err)
	}
}

func TestLinearCanceled(t *testing.T) {
	root := writeDays(t, linearDays)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Linear(ctx, root, "database", date.Range{}, 10, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v; want context.Canceled", err)
	}
}

func TestQueryTerms(t *testing.T) {
	var got []string
	for _, tt := range queryTerms("Who did I meet about the #migration, and the Migration plan?") {
		got = append(got, tt.word)
	}
	if strings.Join(got, " ") != "meet migration plan" {
		t.Errorf("terms = %v; want meet migration plan", got)
	}
	m := newTerm("meeting")
	for w, want := range map[string]bool{"meeting": true, "meet": true, "meets": true, "meetup": false, "met": false} {
		if got := m.is(w); got != want {
			t.Errorf("term meeting matches %q: %v, want %v", w, got, want)
		}
	}
}

// BenchmarkLinear scans five years of day files, against dayfiles.Scan (what
// "daybook find" does) over the same files.
func BenchmarkLinear(b *testing.B) {
	root := fiveYears(b)
	ctx := context.Background()
	b.Run("linear", func(b *testing.B) {
		for b.Loop() {
			if _, err := Linear(ctx, root, "database migration postgres", date.Range{}, 10, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("find", func(b *testing.B) {
		m, err := dayfiles.NewMatcher("migration", false)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			files, err := dayfiles.List(root, date.Range{}, nil)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := dayfiles.ScanFiles(files, m, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// fiveYears writes 1,826 day files of eight entries each.
func fiveYears(b *testing.B) string {
	words := strings.Fields("database migration postgres backup review lunch standup design auth argon2 " +
		"garden running book call plan budget release deploy tests refactor index search memory summary " +
		"meeting travel train invoice doctor coffee notes")
	root := b.TempDir()
	d := date.MustParse("2021-01-01")
	for i := 0; i < 1826; i++ {
		var s strings.Builder
		s.WriteString(dayfiles.Title(d) + "\n\n")
		for e := 0; e < 8; e++ {
			fmt.Fprintf(&s, "- %02d:%02d Worked on %s and %s with the team, then %s.\n", 8+e, (i*7+e)%60,
				words[(i*3+e)%len(words)], words[(i*5+e*7)%len(words)], words[(i*11+e*13)%len(words)])
		}
		p := dayfiles.Path(root, d)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		d = d.AddDays(1)
	}
	return root
}
