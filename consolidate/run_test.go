package consolidate_test

import (
	"context"
	"errors"
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
	"github.com/daybook/daybook/internal/util/filelock"
)

var ctx = context.Background()

// jan2026 is a clock in 2026, when all of 2024 and 2025 is closed.
var jan2026 = time.Date(2026, 1, 10, 9, 0, 0, 0, time.UTC)

// twoYears writes days in three months of 2024 and 2025.
func twoYears(t *testing.T, root string) {
	t.Helper()
	daybooktest.WriteDay(t, root, "2024-06-03", "- 09:00 [decision] Move the blog to a static site. #web", "- 10:00 Lunch with Dana Reyes.")
	daybooktest.WriteDay(t, root, "2024-06-04", "- 09:00 [fact] The server has 16 GB of memory. #ops")
	daybooktest.WriteDay(t, root, "2025-03-10", "- 08:00 [event] Started at the new team. #work", "- 09:30 Met @kim about onboarding.")
	daybooktest.WriteDay(t, root, "2025-03-11", "- 08:00 [decision] Use Postgres for the ledger. #db", "- 12:00 [todo] Read the ledger spec. #db")
	daybooktest.WriteDay(t, root, "2025-04-01", "- 08:00 [note] Quiet day, mostly reading. #reading")
}

func TestRunWritesEveryLevel(t *testing.T) {
	root := t.TempDir()
	twoYears(t, root)
	c, _ := newConsolidator(root, jan2026)
	var written []string
	c.OnWrite = func(ctx context.Context, s *consolidate.Summary) { written = append(written, s.ID()) }
	st, err := c.Run(ctx, consolidate.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Days != 5 || st.Months != 3 || st.Years != 2 || st.Unchanged != 0 {
		t.Fatalf("stats %+v: want 5 days, 3 months, 2 years written", st)
	}
	want := []string{"day:2024-06-03", "day:2024-06-04", "day:2025-03-10", "day:2025-03-11", "day:2025-04-01",
		"month:2024-06", "month:2025-03", "month:2025-04", "year:2024", "year:2025"}
	if !slices.Equal(written, want) {
		t.Fatalf("OnWrite saw %v, want %v (day → month → year)", written, want)
	}

	day := readSummary(t, root, date.LevelDay, "2025-03-11")
	if day.Summarizer != "offline/extractive-v2" || !day.WrittenAt.Equal(jan2026) || day.Digest == "" {
		t.Errorf("day front matter: summarizer %q written %v digest %q", day.Summarizer, day.WrittenAt, day.Digest)
	}
	if day.Counts.Entries != 2 || day.Counts.Decisions != 1 || day.Counts.Todos != 1 {
		t.Errorf("day counts %+v", day.Counts)
	}
	if !strings.Contains(day.Prose, "Use Postgres for the ledger.") {
		t.Errorf("day prose %q lacks the decision", day.Prose)
	}
	if len(day.Tags) != 1 || day.Tags[0] != (consolidate.Count{Name: "db", N: 2}) {
		t.Errorf("day tags %v, want db (2)", day.Tags)
	}

	month := readSummary(t, root, date.LevelMonth, "2025-03")
	if month.Counts.Days != 2 || month.Counts.Entries != 4 {
		t.Errorf("month counts %+v", month.Counts)
	}
	if len(month.Busiest) != 2 || month.Busiest[0].Date != "2025-03-10" || month.Busiest[0].Entries != 2 {
		t.Errorf("month busiest days %v", month.Busiest)
	}
	if !slices.Contains(month.People, consolidate.Count{Name: "@kim", N: 1}) {
		t.Errorf("month people %v lack @kim", month.People)
	}
	year := readSummary(t, root, date.LevelYear, "2024")
	if !slices.Contains(year.People, consolidate.Count{Name: "Dana Reyes", N: 1}) {
		t.Errorf("year people %v lack Dana Reyes", year.People)
	}
	if year.Counts.Days != 2 || len(year.Decisions) != 1 {
		t.Errorf("year 2024: counts %+v, decisions %v", year.Counts, year.Decisions)
	}
}

func TestSecondRunWritesNothing(t *testing.T) {
	root := t.TempDir()
	twoYears(t, root)
	c, _ := newConsolidator(root, jan2026)
	if _, err := c.Run(ctx, consolidate.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	before := summaryTimes(t, root)
	stateBefore, err := os.Stat(filepath.Join(root, "summaries", ".state.json"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := c.Run(ctx, consolidate.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Written() != 0 || st.Unchanged != 10 {
		t.Fatalf("second run: %+v, want nothing written and 10 unchanged", st)
	}
	if ch := changed(before, summaryTimes(t, root)); len(ch) > 0 {
		t.Fatalf("second run touched %v", ch)
	}
	stateAfter, _ := os.Stat(filepath.Join(root, "summaries", ".state.json"))
	if !stateAfter.ModTime().Equal(stateBefore.ModTime()) {
		t.Error("second run rewrote the state file")
	}

	// A day file whose time moved but whose bytes did not is read, found
	// unchanged, and nothing is written.
	bump(t, dayfiles.Path(root, date.MustParse("2024-06-03")))
	st, err = c.Run(ctx, consolidate.RunOptions{})
	if err != nil || st.Written() != 0 {
		t.Fatalf("after touching a day file: %+v, %v; want nothing written", st, err)
	}
	if ch := changed(before, summaryTimes(t, root)); len(ch) > 0 {
		t.Fatalf("touching a day file rewrote %v", ch)
	}
}

func TestEditedDayRedoesItsMonthAndYear(t *testing.T) {
	root := t.TempDir()
	twoYears(t, root)
	c, _ := newConsolidator(root, jan2026)
	if _, err := c.Run(ctx, consolidate.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	before := summaryTimes(t, root)
	daybooktest.WaitMtimePast(t, daybooktest.Newest(before)) // so that a rewrite shows in the times
	appendLine(t, root, "2025-03-10", "- 17:00 [decision] Pair with Kim every Tuesday. #work")
	st, err := c.Run(ctx, consolidate.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Days != 1 || st.Months != 1 || st.Years != 1 || st.Unchanged != 7 {
		t.Fatalf("after editing one day: %+v, want 1 day, 1 month, 1 year written and 7 unchanged", st)
	}
	want := []string{"summaries/2025.md", "summaries/2025/03.md", "summaries/2025/03/10.md"}
	if got := changed(before, summaryTimes(t, root)); !slices.Equal(got, want) {
		t.Fatalf("rewrote %v, want %v", got, want)
	}
	month := readSummary(t, root, date.LevelMonth, "2025-03")
	if len(month.Decisions) != 2 || month.Decisions[0].Ref != "days/2025/03/10.md:5" {
		t.Fatalf("month decisions after the edit: %+v", month.Decisions)
	}
}

// consolidatedTwoYears writes twoYears' days and consolidates them.
func consolidatedTwoYears(t *testing.T) (root string, c *consolidate.Consolidator, logs *logBuffer) {
	t.Helper()
	root = t.TempDir()
	twoYears(t, root)
	c, logs = newConsolidator(root, jan2026)
	if _, err := c.Run(ctx, consolidate.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	return root, c, logs
}

// editFile changes the file at path as a person would and returns what it
// holds now; an edit that changes nothing fails the test.
func editFile(t *testing.T, path string, edit func(string) string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := edit(string(data))
	if edited == string(data) {
		t.Fatalf("the edit changed nothing in %s", path)
	}
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	return edited
}

// dayChangesSummaryKept adds an entry to 2025-03-11, consolidates, and
// checks that the day's hand-edited summary at path was kept as edited.
func dayChangesSummaryKept(t *testing.T, c *consolidate.Consolidator, root, path, edited string) {
	t.Helper()
	appendLine(t, root, "2025-03-11", "- 18:00 Read half of the spec. #db")
	st, err := c.Run(ctx, consolidate.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(st.Kept, []string{"summaries/2025/03/11.md"}) || st.Days != 0 {
		t.Fatalf("after the day changed: %+v, want its summary kept", st)
	}
	if got, _ := os.ReadFile(path); string(got) != edited {
		t.Fatal("the hand-edited summary was rewritten")
	}
}

func TestHandEditedSummaryIsKept(t *testing.T) {
	root, c, logs := consolidatedTwoYears(t)
	path := filepath.Join(root, "summaries", "2025", "03", "11.md")
	edited := editFile(t, path, func(s string) string {
		return strings.Replace(s, "Use Postgres for the ledger.", "We chose Postgres, after a long talk with Kim.", 1)
	})

	// The day is unchanged: its summary stays, and its month takes the
	// person's prose.
	st, err := c.Run(ctx, consolidate.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Days != 0 || st.Months != 1 || st.Years != 1 {
		t.Fatalf("after editing a daily summary: %+v, want its month and year redone", st)
	}
	if m := readSummary(t, root, date.LevelMonth, "2025-03"); !strings.Contains(m.Prose, "a long talk with Kim") {
		t.Errorf("month prose %q lacks the hand-edited daily prose", m.Prose)
	}

	// The day changes: the summary is still kept, and the log says why.
	dayChangesSummaryKept(t, c, root, path, edited)
	if !strings.Contains(logs.String(), "keeping a summary edited by hand") || !strings.Contains(logs.String(), "summaries/2025/03/11.md") {
		t.Errorf("no log line names the kept summary:\n%s", logs)
	}
	// Kept once, it is not reported again while nothing changes.
	if st, err = c.Run(ctx, consolidate.RunOptions{}); err != nil || len(st.Kept) != 0 || st.Written() != 0 {
		t.Fatalf("third run: %+v, %v; want nothing written or kept", st, err)
	}

	// --force rewrites it.
	st, err = c.Run(ctx, consolidate.RunOptions{Force: true, Range: date.Range{From: date.MustParse("2025-03-11"), To: date.MustParse("2025-03-11")}})
	if err != nil {
		t.Fatal(err)
	}
	if st.Days != 1 || len(st.Kept) != 0 {
		t.Fatalf("forced: %+v, want the day rewritten", st)
	}
	if s := readSummary(t, root, date.LevelDay, "2025-03-11"); strings.Contains(s.Prose, "long talk") || s.Counts.Entries != 3 {
		t.Fatalf("forced rewrite: prose %q, counts %+v", s.Prose, s.Counts)
	}
}

// TestFrontMatterEditIsKept checks that a summary whose front matter alone
// a person changed (a comment, a key of their own) is kept when its inputs
// change, as a body edit is.
func TestFrontMatterEditIsKept(t *testing.T) {
	for name, edit := range map[string]func(string) string{
		"comment":   func(s string) string { return strings.Replace(s, "---\n", "---\n# reviewed with Kim\n", 1) },
		"own key":   func(s string) string { return strings.Replace(s, "counts:", "tags: [ledger]\ncounts:", 1) },
		"line note": func(s string) string { return strings.Replace(s, "level: day", "level: day # keep", 1) },
	} {
		t.Run(name, func(t *testing.T) {
			root, c, logs := consolidatedTwoYears(t)
			path := filepath.Join(root, "summaries", "2025", "03", "11.md")
			edited := editFile(t, path, edit)
			// The summary still reads as a summary.
			if s := readSummary(t, root, date.LevelDay, "2025-03-11"); s.Counts.Entries != 2 {
				t.Fatalf("edited summary reads with counts %+v", s.Counts)
			}
			dayChangesSummaryKept(t, c, root, path, edited)
			if !strings.Contains(logs.String(), "keeping a summary edited by hand") {
				t.Errorf("no log line says the summary was kept:\n%s", logs)
			}
		})
	}
}

func TestLostStateStillKeepsHandEdits(t *testing.T) {
	root := t.TempDir()
	twoYears(t, root)
	c, _ := newConsolidator(root, jan2026)
	if _, err := c.Run(ctx, consolidate.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	before := summaryTimes(t, root)
	statePath := filepath.Join(root, "summaries", ".state.json")

	// Without the state file and without changes nothing is rewritten: the
	// front matter says what each summary was made from.
	if err := os.Remove(statePath); err != nil {
		t.Fatal(err)
	}
	st, err := c.Run(ctx, consolidate.RunOptions{})
	if err != nil || st.Written() != 0 || st.Unchanged != 10 {
		t.Fatalf("run without state: %+v, %v; want all 10 unchanged", st, err)
	}
	if ch := changed(before, summaryTimes(t, root)); len(ch) > 0 {
		t.Fatalf("run without state rewrote %v", ch)
	}

	// A hand edit made while the state is lost is still a hand edit.
	path := filepath.Join(root, "summaries", "2024", "06.md")
	data, _ := os.ReadFile(path)
	edited := strings.Replace(string(data), "## Decisions", "My own note on June.\n\n## Decisions", 1)
	os.WriteFile(path, []byte(edited), 0o644)
	os.Remove(statePath)
	appendLine(t, root, "2024-06-04", "- 11:00 [fact] The disk is 1 TB. #ops")
	st, err = c.Run(ctx, consolidate.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(st.Kept, []string{"summaries/2024/06.md"}) || st.Days != 1 || st.Years != 1 {
		t.Fatalf("%+v: want the day and year redone and the month kept", st)
	}
	if got, _ := os.ReadFile(path); string(got) != edited {
		t.Fatal("the hand-edited month was overwritten")
	}
}

func TestUnparsableDayIsSkipped(t *testing.T) {
	root := t.TempDir()
	twoYears(t, root)
	bad := dayfiles.Path(root, date.MustParse("2025-03-12"))
	if err := os.WriteFile(bad, []byte("# 2025-03-12\n\n- 09:00 caf\xe9 au lait\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, logs := newConsolidator(root, jan2026)
	st, err := c.Run(ctx, consolidate.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Skipped) != 1 || st.Skipped[0].Path != "days/2025/03/12.md" || !strings.Contains(st.Skipped[0].Reason, "not UTF-8") {
		t.Fatalf("skipped %+v, want days/2025/03/12.md as not UTF-8", st.Skipped)
	}
	if !strings.Contains(st.Skipped[0].Reason, ":3:") {
		t.Errorf("reason %q does not name the line", st.Skipped[0].Reason)
	}
	if st.Days != 5 || st.Months != 3 || st.Years != 2 {
		t.Fatalf("%+v: want the rest consolidated", st)
	}
	if !strings.Contains(logs.String(), "skipping day file") || !strings.Contains(logs.String(), "days/2025/03/12.md") {
		t.Errorf("no log line names the skipped file:\n%s", logs)
	}
	if _, err := os.Stat(filepath.Join(root, "summaries", "2025", "03", "12.md")); !os.IsNotExist(err) {
		t.Error("a summary was written for the unparsable day")
	}
	// It is counted again on the next run, without being read.
	if st, err = c.Run(ctx, consolidate.RunOptions{}); err != nil || len(st.Skipped) != 1 || st.Written() != 0 {
		t.Fatalf("second run: %+v, %v", st, err)
	}
}

func TestCancelLeavesWholeFiles(t *testing.T) {
	root := t.TempDir()
	twoYears(t, root)
	c, _ := newConsolidator(root, jan2026)
	cctx, cancel := context.WithCancel(ctx)
	st, err := c.Run(cctx, consolidate.RunOptions{Progress: func(done, total int) {
		if done == 3 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("run: %v, want context.Canceled", err)
	}
	if st.Days != 3 {
		t.Fatalf("stats %+v: want 3 days written before the cancel", st)
	}
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.Contains(d.Name(), "tmp") {
			t.Errorf("temp file left behind: %s", path)
		}
		if !d.IsDir() && strings.HasPrefix(path, filepath.Join(root, "summaries")) && strings.HasSuffix(path, ".md") {
			if _, err := consolidate.ReadSummary(path); err != nil {
				t.Errorf("partial summary: %v", err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The next run does the rest and nothing twice.
	st, err = c.Run(ctx, consolidate.RunOptions{})
	if err != nil || st.Days != 2 || st.Months != 3 || st.Years != 2 || st.Unchanged != 3 {
		t.Fatalf("run after the cancel: %+v, %v", st, err)
	}
}

func TestSecondConsolidationIsRefused(t *testing.T) {
	root := t.TempDir()
	twoYears(t, root)
	c, _ := newConsolidator(root, jan2026)
	other, _ := newConsolidator(root, jan2026)
	var inner error
	_, err := c.Run(ctx, consolidate.RunOptions{Progress: func(done, total int) {
		if done == 1 {
			_, inner = other.Run(ctx, consolidate.RunOptions{})
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	var busy *consolidate.BusyError
	if !errors.As(inner, &busy) || busy.PID != os.Getpid() || !errors.Is(inner, filelock.ErrBusy) {
		t.Fatalf("second run: %v, want a BusyError with pid %d", inner, os.Getpid())
	}
	if want := "a consolidation is already running (pid "; !strings.HasPrefix(inner.Error(), want) {
		t.Fatalf("error %q, want it to start %q", inner, want)
	}
	// Released after the run.
	if _, err := other.Run(ctx, consolidate.RunOptions{}); err != nil {
		t.Fatalf("run after the first ended: %v", err)
	}
}

func TestOnlyClosedPeriods(t *testing.T) {
	root := t.TempDir()
	daybooktest.WriteDay(t, root, "2026-03-13", "- 09:00 [fact] Yesterday's fact.")
	daybooktest.WriteDay(t, root, "2026-03-14", "- 09:00 [fact] Today's fact.")
	daybooktest.WriteDay(t, root, "2026-02-27", "- 09:00 [fact] Last month's fact.")
	daybooktest.WriteDay(t, root, "2026-02-28", "# just a title and nothing else")
	os.WriteFile(dayfiles.Path(root, date.MustParse("2026-02-28")), []byte("# 2026-02-28 Saturday\n"), 0o644)
	c, _ := newConsolidator(root, time.Date(2026, 3, 14, 23, 30, 0, 0, time.UTC))
	st, err := c.Run(ctx, consolidate.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := summaryTimes(t, root)
	var paths []string
	for p := range got {
		paths = append(paths, p)
	}
	sortStrings(paths)
	want := []string{"summaries/2026/02.md", "summaries/2026/02/27.md", "summaries/2026/03/13.md"}
	if !slices.Equal(paths, want) {
		t.Fatalf("wrote %v (%+v), want %v: not today, this month, this year, or an empty day", paths, st, want)
	}

	// In another zone it is already the 15th: the 14th is closed.
	c.Loc = time.FixedZone("UTC+2", 2*3600)
	if st, err = c.Run(ctx, consolidate.RunOptions{}); err != nil || st.Days != 1 {
		t.Fatalf("at 01:30 on the 15th: %+v, %v; want the 14th written", st, err)
	}
}

func TestDeletedDayRemovesItsSummary(t *testing.T) {
	root := t.TempDir()
	twoYears(t, root)
	c, _ := newConsolidator(root, jan2026)
	var removed []string
	c.OnRemove = func(ctx context.Context, p consolidate.Period) { removed = append(removed, p.ID()) }
	if _, err := c.Run(ctx, consolidate.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	os.Remove(dayfiles.Path(root, date.MustParse("2025-04-01")))
	st, err := c.Run(ctx, consolidate.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"summaries/2025/04/01.md", "summaries/2025/04.md"}
	if !slices.Equal(st.Removed, want) || st.Years != 1 {
		t.Fatalf("%+v: want %v removed and 2025 redone", st, want)
	}
	if !slices.Equal(removed, []string{"day:2025-04-01", "month:2025-04"}) {
		t.Fatalf("OnRemove saw %v", removed)
	}
	if y := readSummary(t, root, date.LevelYear, "2025"); y.Counts.Days != 2 {
		t.Fatalf("year counts %+v after the day went", y.Counts)
	}
}

func TestStale(t *testing.T) {
	root := t.TempDir()
	twoYears(t, root)
	c, _ := newConsolidator(root, jan2026)
	stale, err := c.Stale(ctx)
	if err != nil || len(stale) != 10 {
		t.Fatalf("before any run: %v, %v; want all 10 periods", stale, err)
	}
	if _, err := c.Run(ctx, consolidate.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if stale, err = c.Stale(ctx); err != nil || len(stale) != 0 {
		t.Fatalf("after a run: %v, %v; want none", stale, err)
	}
	appendLine(t, root, "2024-06-04", "- 12:00 More.")
	stale, err = c.Stale(ctx)
	var ids []string
	for _, p := range stale {
		ids = append(ids, p.ID())
	}
	if want := []string{"day:2024-06-04", "month:2024-06", "year:2024"}; err != nil || !slices.Equal(ids, want) {
		t.Fatalf("after an edit: %v, %v; want %v", ids, err, want)
	}
	if st, _ := c.Run(ctx, consolidate.RunOptions{}); st.Written() != 3 {
		t.Fatalf("Stale said 3, Run wrote %+v", st)
	}
}

func TestLevelAndRange(t *testing.T) {
	root := t.TempDir()
	twoYears(t, root)
	c, _ := newConsolidator(root, jan2026)
	st, err := c.Run(ctx, consolidate.RunOptions{Level: date.LevelDay, Range: date.Range{From: date.MustParse("2025-01-01")}})
	if err != nil || st.Days != 3 || st.Months+st.Years != 0 {
		t.Fatalf("days of 2025: %+v, %v", st, err)
	}
	st, err = c.Run(ctx, consolidate.RunOptions{Level: date.LevelMonth})
	if err != nil || st.Months != 2 || st.Days+st.Years != 0 {
		t.Fatalf("months: %+v, %v; want the two months of 2025 that have daily summaries", st, err)
	}
	if _, err := c.Run(ctx, consolidate.RunOptions{Level: "week"}); err == nil || !strings.Contains(err.Error(), `"week"`) {
		t.Fatalf("level week: %v", err)
	}
}
