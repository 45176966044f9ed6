package recall_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/daybooktest"
	"github.com/daybook/daybook/internal/models/offline"
	"github.com/daybook/daybook/recall"
)

// summaries is a corpus of summary documents held in memory, each its own
// source file, as the consolidation would write them.
type summaries map[string]index.Doc

func (s summaries) List(context.Context) ([]index.Source, error) {
	var out []index.Source
	for p := range s {
		out = append(out, index.Source{Path: p, Stamp: "1"})
	}
	return out, nil
}
func (s summaries) Load(_ context.Context, src index.Source) (index.Source, error) {
	src.Docs = []index.Doc{s[src.Path]}
	return src, nil
}
func (s summaries) Stat(p string) (index.Source, bool) {
	_, ok := s[p]
	return index.Source{Path: p, Stamp: "1"}, ok
}

// add adds the summary of a period ("2025", "2025-06", "2025-06-14").
func (s summaries) add(period, text string) {
	var d index.Doc
	switch len(period) {
	case 4:
		y := date.MustParse(period + "-01-01")
		d = index.Doc{ID: "year:" + period, Level: date.LevelYear, Start: y, End: date.YearRange(y.Year).To}
	case 7:
		m, _ := date.ParseMonth(period)
		d = index.Doc{ID: "month:" + period, Level: date.LevelMonth, Start: m.First(), End: m.Last()}
	default:
		day := date.MustParse(period)
		d = index.Doc{ID: "day:" + period, Level: date.LevelDay, Start: day, End: day}
	}
	d.Period, d.Kind, d.Text, d.Line = period, "summary", text, 5
	d.Path = "summaries/" + strings.ReplaceAll(period, "-", "/") + ".md"
	s[d.Path] = d
}

type fixture struct {
	root string
	x    *index.Index
	sums summaries
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	root := t.TempDir()
	x, err := index.Open(context.Background(), filepath.Join(root, "index"), index.Options{Embedder: offline.NewEmbedder()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return &fixture{root: root, x: x, sums: summaries{}}
}

func (f *fixture) day(t *testing.T, day string, texts ...string) {
	t.Helper()
	d := date.MustParse(day)
	var es []dayfiles.NewEntry
	for i, s := range texts {
		es = append(es, dayfiles.NewEntry{At: d.At(8+i/60, i%60, time.UTC), Text: s})
	}
	if _, err := daybooktest.AppendMany(f.root, time.UTC, es); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) sync(t *testing.T) {
	t.Helper()
	if _, err := f.x.Sync(context.Background(), false, index.DayFiles{Root: f.root}, f.sums); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) recall(t *testing.T, req daybook.RecallRequest) daybook.RecallResponse {
	t.Helper()
	now := time.Date(2026, 1, 10, 12, 0, 0, 0, time.UTC)
	resp, err := recall.Recall(context.Background(), f.x, req, recall.Options{Root: f.root, Now: func() time.Time { return now }, Loc: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func ids(rs []daybook.RecallResult) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

// buildPyramid writes two years: 2025 talks about kayaks on many days of
// June; 2024 mentions a kayak once, on 2024-03-10, in a month about taxes.
func buildPyramid(t *testing.T, f *fixture) {
	for i := 1; i <= 12; i++ {
		day := fmt.Sprintf("2025-06-%02d", i)
		f.day(t, day, "Kayak practice on the lake, kayak rolls and kayak rescue drills #kayak", "Groceries")
		f.sums.add(day, "Kayak practice: kayak rolls, kayak rescue drills on the lake.")
	}
	f.sums.add("2025-06", "A month of kayak practice on the lake: kayak rolls and rescues most days.")
	f.sums.add("2025-02", "Budget planning and the billing migration.")
	f.sums.add("2025", "The year of the billing migration; a summer of kayak practice.")
	f.day(t, "2024-03-10", "Taxes filed; bought a used kayak from Lena", "Called the accountant")
	f.sums.add("2024-03-10", "Filed taxes, called the accountant, bought a used kayak from Lena.")
	for i := 11; i <= 20; i++ {
		day := fmt.Sprintf("2024-03-%02d", i)
		f.day(t, day, "Tax receipts sorted", "Long walk")
		f.sums.add(day, "Sorted tax receipts and went for a long walk.")
	}
	f.sums.add("2024-03", "Tax month: receipts, the accountant, and a used kayak bought from Lena.")
	f.sums.add("2024-07", "Garden work and the fence.")
	f.sums.add("2024", "Taxes in March, the garden in summer; a used kayak bought.")
	f.sync(t)
}

func TestDrillFindsADayOutsideTheGlobalTopFive(t *testing.T) {
	f := newFixture(t)
	buildPyramid(t, f)
	// Globally, the five best days for "kayak" are all in June 2025.
	global, err := f.x.Search(context.Background(), index.Query{Text: "kayak", Level: date.LevelDay, K: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range global {
		if h.Period == "2024-03-10" {
			t.Fatalf("the fixture is too easy: 2024-03-10 is in the global top 5: %v", global)
		}
	}
	resp := f.recall(t, daybook.RecallRequest{Query: "kayak", Limit: 40, Explain: true})
	if resp.Method.Start != daybook.MethodDrill {
		t.Fatalf("method %q, want drill", resp.Method)
	}
	got := ids(resp.Results)
	if !slices.Contains(resp.Path, "day:2024-03-10") {
		t.Fatalf("the drill inside 2024-03 did not reach day:2024-03-10: %v\npath %v", got, resp.Path)
	}
	if !slices.Contains(resp.Path, "month:2024-03") || !slices.Contains(resp.Path, "year:2024") {
		t.Fatalf("drill path %v does not go through year:2024 and month:2024-03", resp.Path)
	}
	var entry *daybook.RecallResult
	for i, r := range resp.Results {
		if r.Level == "entry" && r.Period == "2024-03-10" {
			entry = &resp.Results[i]
		}
		if r.Explain == nil || r.Level != "month" && r.Level != "year" && r.Explain.Day == nil {
			t.Fatalf("result %s has no explain", r.ID)
		}
	}
	if entry == nil {
		t.Fatalf("no entry of 2024-03-10 among %v", got)
	}
	if entry.Path != "days/2024/03/10.md" || entry.Line != 3 || !strings.Contains(entry.Snippet, "**kayak**") {
		t.Fatalf("entry result %+v", *entry)
	}
	if entry.Explain.Parent != "2024-03-10" {
		t.Fatalf("entry searched inside %q, want its day", entry.Explain.Parent)
	}
	// Results are sorted and a year weighs less than a day.
	for i := 1; i < len(resp.Results); i++ {
		if resp.Results[i].Score > resp.Results[i-1].Score {
			t.Fatalf("results not sorted at %d: %v", i, got)
		}
	}
}

func TestDrillRestrictedByRange(t *testing.T) {
	f := newFixture(t)
	buildPyramid(t, f)
	resp := f.recall(t, daybook.RecallRequest{Query: "kayak in 2024", Limit: 20})
	if resp.Range != "2024-01-01..2024-12-31" {
		t.Fatalf("range %q", resp.Range)
	}
	if len(resp.Results) == 0 {
		t.Fatal("nothing found in 2024")
	}
	// The phrase's year comes first; fewer days than the limit in it, the
	// rest of the range follows (method "+outside"), never before it.
	inside := true
	for _, r := range resp.Results {
		if !strings.HasPrefix(r.Period, "2024") {
			inside = false
			if !resp.Method.Outside {
				t.Fatalf("result %s outside 2024, method %q", r.ID, resp.Method)
			}
		} else if !inside {
			t.Fatalf("result %s of 2024 after a result outside it: %v", r.ID, ids(resp.Results))
		}
	}
	for i := 1; i < len(resp.Results); i++ {
		if resp.Results[i].Score > resp.Results[i-1].Score {
			t.Fatalf("results not sorted at %d: %v", i, ids(resp.Results))
		}
	}
	resp = f.recall(t, daybook.RecallRequest{Query: "kayak", From: "2025-06-03", To: "2025-06-04", Level: "entry"})
	for _, r := range resp.Results {
		if r.Period != "2025-06-03" && r.Period != "2025-06-04" {
			t.Fatalf("result %s outside --from/--to", r.ID)
		}
	}
	if len(resp.Results) != 2 {
		t.Fatalf("want the 2 kayak entries of 3 and 4 June: %v", ids(resp.Results))
	}
}

func TestCascade(t *testing.T) {
	f := newFixture(t)
	f.day(t, "2025-06-01", "Kayak practice on the lake")
	f.day(t, "2025-06-02", "Reading about sailing")
	f.sync(t)
	// No summaries at all: the linear scan.
	if r := f.recall(t, daybook.RecallRequest{Query: "kayak"}); r.Method.Start != daybook.MethodLinear || len(r.Results) != 1 {
		t.Fatalf("no summaries: method %q results %v", r.Method, ids(r.Results))
	}
	// Dailies only: the drill starts at days.
	f.sums.add("2025-06-01", "Kayak practice on the lake.")
	f.sums.add("2025-06-02", "Read about sailing.")
	f.sync(t)
	r := f.recall(t, daybook.RecallRequest{Query: "kayak", Level: "entry"})
	if r.Method.Start != daybook.MethodDays || len(r.Results) == 0 || r.Results[0].Period != "2025-06-01" {
		t.Fatalf("dailies only: method %q results %v", r.Method, ids(r.Results))
	}
	// Monthlies: starts at months.
	f.sums.add("2025-06", "Kayak practice and reading about sailing.")
	f.sync(t)
	if r := f.recall(t, daybook.RecallRequest{Query: "kayak", Level: "day"}); r.Method.Start != daybook.MethodMonths || !slices.Contains(ids(r.Results), "day:2025-06-01") {
		t.Fatalf("monthlies: method %q results %v", r.Method, ids(r.Results))
	}
	// A yearly: the whole drill.
	f.sums.add("2025", "Kayaks and sailing.")
	f.sync(t)
	if r := f.recall(t, daybook.RecallRequest{Query: "kayak"}); r.Method.Start != daybook.MethodDrill || !slices.Contains(ids(r.Results), "year:2025") {
		t.Fatalf("yearly: method %q results %v", r.Method, ids(r.Results))
	}
}

func TestUnsummarisedDaysAreFound(t *testing.T) {
	f := newFixture(t)
	buildPyramid(t, f)
	// Today has no daily summary, its month and year none either.
	f.day(t, "2026-01-10", "Ordered a new kayak paddle")
	f.sync(t)
	r := f.recall(t, daybook.RecallRequest{Query: "kayak paddle", Limit: 5, Level: "entry"})
	if len(r.Results) == 0 || r.Results[0].Period != "2026-01-10" {
		t.Fatalf("today's entry is not first: %v (method %s)", ids(r.Results), r.Method)
	}
}

func TestModes(t *testing.T) {
	f := newFixture(t)
	buildPyramid(t, f)
	for _, mode := range []string{"bm25", "vector", "linear", "drill"} {
		r := f.recall(t, daybook.RecallRequest{Query: "used kayak Lena", Mode: mode, Limit: 3, Level: "entry"})
		if len(r.Results) == 0 || r.Results[0].Period != "2024-03-10" {
			t.Errorf("mode %s: %v", mode, ids(r.Results))
		}
	}
}

func TestHostileQueries(t *testing.T) {
	f := newFixture(t)
	buildPyramid(t, f)
	big := strings.Repeat("kayak ", 1<<20/6)
	if _, err := recall.Recall(context.Background(), f.x, daybook.RecallRequest{Query: big}, recall.Options{Root: f.root}); err == nil || !strings.Contains(err.Error(), "over the limit of 4096") {
		t.Fatalf("1 MiB query: %v", err)
	}
	for _, q := range []string{"?!.,;:--", "", "   ", "*** ((( ]]]", "the of and"} {
		r := f.recall(t, daybook.RecallRequest{Query: q})
		if q != "the of and" && (r.Method.Start != daybook.MethodNone || len(r.Results) != 0) {
			t.Errorf("query %q: method %q results %v", q, r.Method, ids(r.Results))
		}
	}
	// Just under the limit works.
	r := f.recall(t, daybook.RecallRequest{Query: strings.Repeat("kayak ", daybook.MaxQuery/6)})
	if len(r.Results) == 0 {
		t.Error("a 4 KiB query found nothing")
	}
	for _, req := range []daybook.RecallRequest{{Query: "x", Level: "week"}, {Query: "x", Mode: "magic"}, {Query: "x", Limit: -1}} {
		if err := recall.Check(req); err == nil {
			t.Errorf("%+v: no error", req)
		}
	}
}
