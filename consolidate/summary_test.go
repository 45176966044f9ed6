package consolidate_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/daybooktest"
)

// TestDecisionsKeptWithTheirLines writes a year with 72 decisions, some over
// several lines, and checks that every day and month lists all of its own
// verbatim with a path:line that points at the entry, and the year its 50
// most salient with a note that the months list the rest.
func TestDecisionsKeptWithTheirLines(t *testing.T) {
	root := t.TempDir()
	var all []dayfiles.Entry
	for m := 1; m <= 12; m++ {
		for _, dd := range []int{3, 17} {
			d := date.Date{Year: 2025, Month: time.Month(m), Day: dd}
			lines := []string{"Some free text first.", ""}
			for k := 0; k < 3; k++ {
				text := fmt.Sprintf("[decision] Decide item %d-%d-%d about the #proj%d rollout.", m, dd, k, k)
				if k == 1 {
					text += "\n  Because the old one broke.\n\n  ```\n  code stays\n  ```"
				}
				lines = append(lines, fmt.Sprintf("- %02d:%02d %s", 9+k, 5, text), fmt.Sprintf("- %02d:30 An ordinary note.", 9+k))
			}
			path := daybooktest.WriteDay(t, root, d.String(), lines...)
			day, err := dayfiles.ParseFile(path, d)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range day.Entries {
				if e.Kind == dayfiles.KindDecision {
					all = append(all, e)
				}
			}
		}
	}
	if len(all) != 72 {
		t.Fatalf("wrote %d decisions, want 72", len(all))
	}
	c, _ := newConsolidator(root, jan2026)
	if _, err := c.Run(ctx, consolidate.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	check := func(s *consolidate.Summary, want []dayfiles.Entry) {
		t.Helper()
		if len(s.Decisions) != len(want) {
			t.Fatalf("%s lists %d decisions, want %d", s.Rel, len(s.Decisions), len(want))
		}
		for i, e := range want {
			got := s.Decisions[i]
			ref := fmt.Sprintf("%s:%d", dayfiles.RelPath(e.Day), e.Line)
			if got.Ref != ref || got.Path != dayfiles.RelPath(e.Day) || got.Line != e.Line || got.Time != e.Clock() || got.Text != e.Text {
				t.Errorf("%s decision %d: %+v, want %s %s %q", s.Rel, i, got, ref, e.Clock(), e.Text)
			}
			// The line really is the entry's first line.
			data, _ := os.ReadFile(dayfiles.Path(root, e.Day))
			if line := strings.Split(string(data), "\n")[got.Line-1]; !strings.HasPrefix(line, "- "+e.Clock()+" [decision]") {
				t.Errorf("%s points at line %q", ref, line)
			}
		}
	}
	byMonth := map[date.Month][]dayfiles.Entry{}
	for _, e := range all {
		byMonth[e.Day.MonthOf()] = append(byMonth[e.Day.MonthOf()], e)
	}
	for _, d := range []string{"2025-01-03", "2025-07-17"} {
		s := readSummary(t, root, date.LevelDay, d)
		var want []dayfiles.Entry
		for _, e := range all {
			if e.Day.String() == d {
				want = append(want, e)
			}
		}
		check(s, want)
		body, _ := os.ReadFile(s.Path)
		if !strings.Contains(string(body), fmt.Sprintf("[days/%s/%s/%s.md:%d](../../../days/%s/%s/%s.md#L%d)",
			d[:4], d[5:7], d[8:], want[0].Line, d[:4], d[5:7], d[8:], want[0].Line)) {
			t.Errorf("%s lacks a relative link to its first decision", s.Rel)
		}
	}
	for m, want := range byMonth {
		check(readSummary(t, root, date.LevelMonth, m.String()), want)
	}
	year := readSummary(t, root, date.LevelYear, "2025")
	if len(year.Decisions) != 50 || year.DecisionsOmitted != 22 || year.Counts.Decisions != 72 {
		t.Fatalf("year: %d decisions shown, %d omitted, %d counted; want 50, 22, 72", len(year.Decisions), year.DecisionsOmitted, year.Counts.Decisions)
	}
	for _, d := range year.Decisions {
		if !slices.ContainsFunc(all, func(e dayfiles.Entry) bool {
			return fmt.Sprintf("%s:%d", dayfiles.RelPath(e.Day), e.Line) == d.Ref && e.Text == d.Text
		}) {
			t.Errorf("year decision %+v is not an entry", d)
		}
	}
	body, _ := os.ReadFile(year.Path)
	if !strings.Contains(string(body), "The 50 most salient of the year's 72 decisions; each month's summary lists all of its own: [2025-01](2025/01.md)") {
		t.Errorf("year does not say where the other decisions are:\n%s", body)
	}
}

func TestReadSummaryRoundTrip(t *testing.T) {
	root := t.TempDir()
	daybooktest.WriteDay(t, root, "2025-05-05",
		"- 09:00 [decision] Ship it.",
		"  Line two of it.",
		"",
		"  Line four, after a blank.",
		"- 10:00 Talked to Ana Lima and @zed about #release and #qa.",
		"- 11:00 Ana Lima again, #release.",
	)
	c, _ := newConsolidator(root, jan2026)
	if _, err := c.Run(ctx, consolidate.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	s := readSummary(t, root, date.LevelDay, "2025-05-05")
	if s.Title != "2025-05-05 Monday" || s.Rel != "summaries/2025/05/05.md" || s.ID() != "day:2025-05-05" {
		t.Errorf("title %q rel %q id %q", s.Title, s.Rel, s.ID())
	}
	if len(s.Decisions) != 1 || s.Decisions[0].Text != "Ship it.\nLine two of it.\n\nLine four, after a blank." {
		t.Errorf("decisions %+v", s.Decisions)
	}
	if !slices.Equal(s.Tags, []consolidate.Count{{Name: "release", N: 2}, {Name: "qa", N: 1}}) {
		t.Errorf("tags %v", s.Tags)
	}
	if !slices.Equal(s.People, []consolidate.Count{{Name: "Ana Lima", N: 2}, {Name: "@zed", N: 1}}) {
		t.Errorf("people %v", s.People)
	}
	if _, err := consolidate.ReadSummary(dayfiles.Path(root, date.MustParse("2025-05-05"))); err == nil || !strings.Contains(err.Error(), "05.md") {
		t.Errorf("reading a day file as a summary: %v, want an error naming it", err)
	}
}

func TestList(t *testing.T) {
	root := t.TempDir()
	twoYears(t, root)
	c, _ := newConsolidator(root, jan2026)
	if _, err := c.Run(ctx, consolidate.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(root+"/summaries/2025/notes.md", []byte("mine"), 0o644)
	ids := func(level date.Level, r date.Range) []string {
		files, err := consolidate.List(root, level, r)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range files {
			out = append(out, f.Period.ID())
		}
		return out
	}
	if got := ids("", date.Range{}); len(got) != 10 || got[0] != "day:2024-06-03" || got[9] != "year:2025" {
		t.Errorf("all: %v", got)
	}
	r := date.Range{From: date.MustParse("2025-03-11"), To: date.MustParse("2025-03-31")}
	if got, want := ids("", r), []string{"day:2025-03-11", "month:2025-03", "year:2025"}; !slices.Equal(got, want) {
		t.Errorf("in %s: %v, want %v", r, got, want)
	}
	if got, want := ids(date.LevelMonth, date.Range{}), []string{"month:2024-06", "month:2025-03", "month:2025-04"}; !slices.Equal(got, want) {
		t.Errorf("months: %v, want %v", got, want)
	}
}

func TestPeople(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"Met Alice Smith about the launch.", []string{"Alice Smith"}},
		{"Lunch with Bob, Carol and @dave_k.", []string{"Bob", "Carol", "@dave_k"}},
		{"Alice said so. Later Alice agreed.", []string{"Alice"}},
		{"Alice said so.", nil},
		{"Chose Argon2 over bcrypt on Monday in March.", nil},
		{"Call with O'Brien and Jean-Luc.", []string{"O'Brien", "Jean-Luc"}},
		{"See `Config Loader` and https://Example.com/Foo for the API.", nil},
		{"email me@example.com about #Release", nil},
		{"I told Eve.\nEve replied.", []string{"Eve"}},
		{"I’m making Italian risotto with Arborio rice and Parmesan. Im sure Kate said it is easy.", []string{"Kate"}},
		{"Shipped the Quokka migration. Zephyrine is late. Thanks Ana!", []string{"Ana"}},
		{"An internship with Microsoft. Calculus with Analytic Geometry.", nil},
	} {
		if got := consolidate.People(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("People(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// A chat's speakers are people, and so are those they address or name as
// acting; cuisines, foods and projects are not. A journal's "Weather:"
// lines have no speaker.
func TestWhomOfAChatDay(t *testing.T) {
	chat := []string{
		"Kevin: Hey Elise, I'm making Italian risotto with Arborio rice.",
		"elise: Im jealous! Parmesan on top? The Cajun place near me closed.",
		"Kevin: Yes, my sister Ana taught me. She moved to New York and I miss her.",
		"elise: Lunch with the Quokka team tomorrow, then the Zephyrine launch.",
	}
	w := consolidate.NewWhom(chat)
	for i, want := range [][]string{{"Kevin", "Elise"}, {"elise"}, {"Kevin", "Ana"}, {"elise"}} {
		if got := w.Of(i); !slices.Equal(got, want) {
			t.Errorf("people of %q = %q, want %q", chat[i], got, want)
		}
	}
	journal := []string{"Weather: fog in the morning.", "Weather: rain.", "Incident: cache misses.", "Met Ana about the Quokka launch.", "Shipped Zephyrine.", "Read a book."}
	w = consolidate.NewWhom(journal)
	if got := w.Of(0); got != nil {
		t.Errorf("a journal's label is taken for a speaker: %q", got)
	}
	if got := w.Of(3); !slices.Equal(got, []string{"Ana"}) {
		t.Errorf("people of %q = %q", journal[3], got)
	}
}

// TestWrittenSummariesAreNotEdits reads summaries an earlier daybook wrote
// (testdata/written: a day and a year of a generated corpus, written in
// session 1) and checks they still count as daybook's own: Edited compares
// the front matter with what render would write from its values, so a new
// front matter field or another YAML layout would turn every summary on
// every disk into a person's edit, never to be rewritten again.
func TestWrittenSummariesAreNotEdits(t *testing.T) {
	for _, name := range []string{"day.md", "year.md"} {
		s, err := consolidate.ReadSummary(filepath.Join("testdata", "written", name))
		if err != nil {
			t.Fatal(err)
		}
		if s.Edited() {
			t.Errorf("%s, as an earlier daybook wrote it, reads as edited by a person", name)
		}
	}
}
