package daemon

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/daybooktest"
)

// editRig is a daemon with the watcher on over two months of 2025, seen
// from a clock in mid 2026, so that every period is closed.
type editRig struct {
	t   *testing.T
	dir string
	log *logBuf
	a   *app.App
	d   *Daemon
}

const editDebounce = 300 * time.Millisecond

func newEditRig(t *testing.T) *editRig {
	dir := t.TempDir()
	for d := date.MustParse("2025-01-06"); d.Before(date.MustParse("2025-03-01")); d = d.AddDays(1) {
		daybooktest.WriteDay(t, dir, d.String(), daybooktest.Hourly("[fact] ran the #build for Bob", "[decision] we keep the "+d.Weekday().String()+" standup")...)
	}
	now := func() time.Time { return time.Date(2026, 6, 15, 12, 0, 0, 0, time.UTC) }
	r := &editRig{t: t, dir: dir, log: &logBuf{}}
	a := newTestApp(t, dir, testConfig(t, "UTC"), r.log, now)
	r.a = a
	// The watcher's debounce outlasts a stall of the test between the steps
	// of one edit (a rename and a write), which would split it in two.
	r.d = startDaemon(t, a, Options{JumpEvery: -1, Watch: dayfiles.WatchOptions{Debounce: editDebounce, Heartbeat: -1}})
	waitBackfill(t, r.d, 60*time.Second)
	return r
}

// edit runs change, waits for the daemon to reconsolidate, and returns the
// summaries whose files changed.
func (r *editRig) edit(change func()) []string {
	r.t.Helper()
	before := summaryFiles(r.t, r.dir)
	prev, _ := lastRun(r.d, JobOnEdit)
	daybooktest.WaitMtimePast(r.t, daybooktest.Newest(before)) // a rewrite shows as a later mtime, on coarse clocks too
	change()
	waitFor(r.t, 10*time.Second, "the edit's reconsolidation", func() bool { at, _ := lastRun(r.d, JobOnEdit); return at.After(prev) })
	if _, err := lastRun(r.d, JobOnEdit); err != "" {
		r.t.Fatalf("on_edit: %s", err)
	}
	// Anything else the edit would wrongly cause: days still in their
	// debounce, a queued job or one running.
	waitFor(r.t, 10*time.Second, "an idle worker", func() bool { return r.d.work.idle() && !running(r.d) })
	var changed []string
	for rel, mt := range summaryFiles(r.t, r.dir) {
		if old, ok := before[rel]; isSummary(rel) && (!ok || !old.Equal(mt)) {
			changed = append(changed, rel)
		}
	}
	slices.Sort(changed)
	return changed
}

func (r *editRig) appendTo(d string, line string) {
	f, err := os.OpenFile(dayfiles.Path(r.dir, date.MustParse(d)), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		r.t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line + "\n"); err != nil {
		r.t.Fatal(err)
	}
}

// recall returns the paths of the entries the full-text index finds for q.
func (r *editRig) recall(q string) []string {
	r.t.Helper()
	resp, err := r.a.Recall(context.Background(), daybook.RecallRequest{Query: q, Mode: "bm25", Level: "entry"})
	if err != nil {
		r.t.Fatal(err)
	}
	var paths []string
	for _, res := range resp.Results {
		paths = append(paths, res.Path)
	}
	return paths
}

func TestEditRedoesDayMonthYear(t *testing.T) {
	r := newEditRig(t)
	if got := r.recall("zeppelin"); len(got) != 0 {
		t.Fatalf("the index finds %v before the edit", got)
	}
	got := r.edit(func() { r.appendTo("2025-02-10", "- 17:00 [decision] move the #build to the zeppelin hangar") })
	want := []string{"summaries/2025.md", "summaries/2025/02.md", "summaries/2025/02/10.md"}
	if !slices.Equal(got, want) {
		t.Fatalf("rewritten %v, want %v", got, want)
	}
	data, err := os.ReadFile(filepath.Join(r.dir, "summaries/2025/02/10.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "move the #build to the zeppelin hangar") {
		t.Errorf("the day's summary lacks the new decision:\n%s", data)
	}
	// The App's clock stands still, so the index never catches up by
	// itself: only the watcher's DaysChanged can have refreshed the day.
	if got := r.recall("zeppelin"); !slices.Contains(got, "days/2025/02/10.md") {
		t.Errorf("the index does not find the edit: %v", got)
	}
}

func TestVimStyleSaveRedoesDayMonthYear(t *testing.T) {
	r := newEditRig(t)
	got := r.edit(func() {
		p := dayfiles.Path(r.dir, date.MustParse("2025-01-20"))
		old, _ := os.ReadFile(p)
		dir := filepath.Dir(p)
		os.WriteFile(filepath.Join(dir, "4913"), nil, 0o644)
		os.Remove(filepath.Join(dir, "4913"))
		os.WriteFile(filepath.Join(dir, ".20.md.swp"), []byte("swap"), 0o644)
		if err := os.Rename(p, p+"~"); err != nil {
			t.Fatal(err)
		}
		edited := strings.Replace(string(old), "ran the #build", "ran the #build twice", 1) + "- 18:00 [decision] vim wrote this\n"
		if err := os.WriteFile(p, []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Remove(p + "~")
		os.Remove(filepath.Join(dir, ".20.md.swp"))
	})
	want := []string{"summaries/2025.md", "summaries/2025/01.md", "summaries/2025/01/20.md"}
	if !slices.Equal(got, want) {
		t.Fatalf("rewritten %v, want %v", got, want)
	}
}

func TestHandEditedSummaryIsKept(t *testing.T) {
	r := newEditRig(t)
	p := filepath.Join(r.dir, "summaries/2025/01/15.md")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	hand := string(data) + "\nA note I added by hand.\n"
	if err := os.WriteFile(p, []byte(hand), 0o644); err != nil {
		t.Fatal(err)
	}
	got := r.edit(func() { r.appendTo("2025-01-15", "- 19:00 [fact] an edit after the hand edit") })
	if slices.Contains(got, "summaries/2025/01/15.md") {
		t.Fatalf("the hand-edited summary was rewritten: %v", got)
	}
	if data, _ := os.ReadFile(p); string(data) != hand {
		t.Fatalf("the hand-edited summary changed:\n%s", data)
	}
	if !strings.Contains(r.log.String(), "summaries/2025/01/15.md") {
		t.Errorf("no log line names the kept summary:\n%s", r.log.String())
	}
}

// TestHandEditedSummaryReachesTheIndex: requests never wait for a full
// catch-up in the daemon; the background one finds a summary edited by
// hand, which no watcher reports.
func TestHandEditedSummaryReachesTheIndex(t *testing.T) {
	dir := t.TempDir()
	for d := date.MustParse("2025-01-06"); d.Before(date.MustParse("2025-01-20")); d = d.AddDays(1) {
		daybooktest.WriteDay(t, dir, d.String(), daybooktest.Hourly("[fact] ran the #build for Bob")...)
	}
	now := func() time.Time { return time.Date(2026, 6, 15, 12, 0, 0, 0, time.UTC) }
	a := newTestApp(t, dir, testConfig(t, "UTC"), &logBuf{}, now)
	d := startDaemon(t, a, Options{JumpEvery: -1, NoWatch: true, CatchUp: 50 * time.Millisecond})
	waitBackfill(t, d, 60*time.Second)
	waitFor(t, 10*time.Second, "the index", func() bool { _, err := a.Index(context.Background()); return err == nil })
	// The day level alone: the drill would not reach a day whose word no
	// month or year summary has.
	found := func() bool {
		x, err := a.Index(context.Background())
		if err != nil {
			return false
		}
		hits, err := x.Rank(context.Background(), index.Query{Text: "zanzibar", Level: date.LevelDay, K: 5})
		return err == nil && len(hits) == 1 && hits[0].ID == "day:2025-01-09"
	}
	path := filepath.Join(dir, "summaries", "2025", "01", "09.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if found() {
		t.Fatal("zanzibar found before the edit")
	}
	edited := strings.Replace(string(data), "Bob", "Bob in Zanzibar", 1)
	if edited == string(data) {
		t.Fatalf("nothing to edit in %s:\n%s", path, data)
	}
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "the hand edit in the index", found)
}
