package dayfiles

import (
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/util/logtest"
	"github.com/fsnotify/fsnotify"
)

// unwatch drops the watch on dir in the Watcher's own goroutine, as a lost
// inotify watch would.
func (w *Watcher) unwatch(t *testing.T, dir string) {
	t.Helper()
	errc := make(chan error, 1)
	w.ctl <- func(fw *fsnotify.Watcher) { errc <- fw.Remove(dir) }
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}

// watchRig runs a Watcher on a temp data dir and collects what it reports.
type watchRig struct {
	t        *testing.T
	root     string
	w        *Watcher
	got      chan []date.Date
	debounce time.Duration
}

func newWatchRig(t *testing.T, opts WatchOptions, days ...string) *watchRig {
	t.Helper()
	r := &watchRig{t: t, root: t.TempDir(), got: make(chan []date.Date, 100)}
	for _, d := range days {
		r.write(d, "first\n")
	}
	if opts.Debounce == 0 {
		// Long beside a stall of the test between two writes of one
		// change (a loaded CI machine stalls for tens of milliseconds),
		// which would split the change into two reports.
		opts.Debounce = 500 * time.Millisecond
	}
	r.debounce = opts.Debounce
	if opts.Heartbeat == 0 {
		opts.Heartbeat = -1
	}
	w, err := Watch(r.root, opts, func(d []date.Date) { r.got <- d })
	if err != nil {
		t.Fatal(err)
	}
	r.w = w
	t.Cleanup(func() { w.Close() })
	return r
}

func (r *watchRig) path(d string) string { return Path(r.root, date.MustParse(d)) }

func (r *watchRig) write(d, text string) {
	r.t.Helper()
	p := r.path(d)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(Title(date.MustParse(d))+"\n\n- 09:00 "+text), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// expect waits for one report and checks it names exactly want.
func (r *watchRig) expect(want ...string) {
	r.t.Helper()
	select {
	case days := <-r.got:
		var got []string
		for _, d := range days {
			got = append(got, d.String())
		}
		if !slices.Equal(got, want) {
			r.t.Fatalf("reported %v, want %v", got, want)
		}
	case <-time.After(5 * time.Second):
		r.t.Fatalf("no report; want %v", want)
	}
}

// waitHeartbeats waits until the Watcher has rewritten its heartbeat file n
// times since the call.
func (r *watchRig) waitHeartbeats(n int) {
	r.t.Helper()
	p := filepath.Join(r.root, HeartbeatName)
	last, _ := os.ReadFile(p) // each write holds the time it was made
	seen := 0
	waitFor(r.t, "heartbeats", func() bool {
		now, err := os.ReadFile(p)
		if err == nil && len(now) > 0 && string(now) != string(last) {
			last = now
			seen++
		}
		return seen >= n
	})
}

// waitFor polls cond until it holds, failing t after 10s.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10s for %s", what)
		}
	}
}

// quiet checks that nothing more is reported for a while: longer than the
// debounce, so that a change pending now would be seen.
func (r *watchRig) quiet() {
	r.t.Helper()
	select {
	case days := <-r.got:
		r.t.Fatalf("unexpected report %v", days)
	case <-time.After(max(300*time.Millisecond, r.debounce*3/2)):
	}
}

// waitPending waits until the Watcher holds d as pending, not yet reported.
func (r *watchRig) waitPending(d string) {
	r.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		pending := make(chan bool)
		r.w.ctl <- func(*fsnotify.Watcher) { _, ok := r.w.pending[date.MustParse(d)]; pending <- ok }
		if <-pending {
			return
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("%s never pending", d)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestWatchEditedDayOnce(t *testing.T) {
	r := newWatchRig(t, WatchOptions{}, "2026-03-04", "2026-03-05")
	r.quiet() // the files present at start are the baseline
	f, err := os.OpenFile(r.path("2026-03-04"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ { // a burst of writes is one change
		f.WriteString("\n- 10:0" + string(rune('0'+i)) + " more")
		time.Sleep(5 * time.Millisecond) // the scenario: an editor's writes, apart in time

	}
	f.Close()
	r.expect("2026-03-04")
	r.quiet()
}

func TestWatchVimSave(t *testing.T) {
	r := newWatchRig(t, WatchOptions{}, "2026-03-04")
	p := r.path("2026-03-04")
	dir := filepath.Dir(p)
	// What vim does with backupcopy=no: probe the folder, keep a swap file,
	// rename the original to a backup, write a new file, remove the backup.
	os.WriteFile(filepath.Join(dir, "4913"), nil, 0o644)
	os.Remove(filepath.Join(dir, "4913"))
	os.WriteFile(filepath.Join(dir, ".04.md.swp"), []byte("swap"), 0o644)
	if err := os.Rename(p, p+"~"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(Title(date.MustParse("2026-03-04"))+"\n\n- 09:00 edited in vim\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(p + "~")
	os.Remove(filepath.Join(dir, ".04.md.swp"))
	r.expect("2026-03-04")
	r.quiet()
}

func TestWatchIgnoresTempFiles(t *testing.T) {
	r := newWatchRig(t, WatchOptions{}, "2026-03-04")
	dir := filepath.Dir(r.path("2026-03-04"))
	for _, name := range []string{"4913", ".04.md.swp", ".04.md.swx", "04.md~", ".#04.md", "#04.md#", "04.md.tmp", "notes.md", "4.md"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(r.root, "days", "README.md"), []byte("x"), 0o644)
	os.MkdirAll(filepath.Join(r.root, "days", "misc"), 0o755)
	os.WriteFile(filepath.Join(r.root, "days", "misc", "01.md"), []byte("x"), 0o644)
	r.quiet()
}

func TestWatchNewMonthAndYear(t *testing.T) {
	r := newWatchRig(t, WatchOptions{}, "2026-11-30")
	r.write("2026-12-01", "a new month folder")
	r.expect("2026-12-01")
	// A new year folder and its month folder at once, with files written
	// before the watcher can add them.
	r.write("2027-01-01", "a new year")
	r.write("2027-01-02", "written at once")
	got := map[string]bool{}
	deadline := time.After(5 * time.Second)
	for len(got) < 2 {
		select {
		case days := <-r.got:
			for _, d := range days {
				got[d.String()] = true
			}
		case <-deadline:
			t.Fatalf("reported %v; want 2027-01-01 and 2027-01-02", got)
		}
	}
	if len(got) != 2 || !got["2027-01-01"] || !got["2027-01-02"] {
		t.Fatalf("reported %v", got)
	}
	// The new month folder is watched: a later write is seen.
	r.write("2027-01-02", "edited")
	r.expect("2027-01-02")
}

// A new folder's rescan can find a file that is created but not yet written.
// It is reported once, whole, not once empty and again when written.
func TestWatchNewFolderHalfWrittenFile(t *testing.T) {
	r := newWatchRig(t, WatchOptions{}, "2026-11-30")
	p := r.path("2026-12-01")
	// The month folder arrives by rename with the empty file in it, so
	// that only the folder's rescan can see the file: no event of its own.
	tmp := filepath.Join(filepath.Dir(filepath.Dir(p)), "month-in-the-making")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, filepath.Base(p)), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Dir(p)); err != nil {
		t.Fatal(err)
	}
	r.waitPending("2026-12-01") // the rescan saw it empty, and holds it
	r.write("2026-12-01", "written a moment later")
	r.expect("2026-12-01")
	r.quiet()
}

func TestWatchDaysRemovedAndRecreated(t *testing.T) {
	r := newWatchRig(t, WatchOptions{}, "2026-03-04", "2026-03-05")
	if err := os.RemoveAll(filepath.Join(r.root, DaysDir)); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	deadline := time.After(5 * time.Second)
	for len(got) < 2 {
		select {
		case days := <-r.got:
			for _, d := range days {
				got[d.String()] = true
			}
		case <-deadline:
			t.Fatalf("removal reported %v", got)
		}
	}
	r.quiet()
	r.write("2026-03-06", "back again")
	r.expect("2026-03-06")
	r.write("2026-03-06", "and edited once more")
	r.expect("2026-03-06")
}

func TestWatchRescanFindsMissedChanges(t *testing.T) {
	r := newWatchRig(t, WatchOptions{}, "2026-03-04", "2026-03-05", "2026-03-06")
	// Lose events as an overflow would: drop the watch on the month folder,
	// then change files. Only a rescan can notice.
	month := filepath.Dir(r.path("2026-03-04"))
	r.w.unwatch(t, month)
	r.write("2026-03-04", "changed while nobody looked, longer than before")
	os.Remove(r.path("2026-03-06"))
	r.write("2026-03-07", "new")
	r.quiet()
	r.w.Rescan()
	r.expect("2026-03-04", "2026-03-06", "2026-03-07")
	r.w.Rescan() // nothing changed since
	r.quiet()
	r.write("2026-03-05", "the rescan watches the folder again")
	r.expect("2026-03-05")
}

func TestWatchHeartbeatRestartsQuietWatcher(t *testing.T) {
	var logs logtest.Buffer
	log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	r := newWatchRig(t, WatchOptions{Heartbeat: 100 * time.Millisecond, Log: log}, "2026-03-04")
	restarts := func() int { return strings.Count(logs.String(), `reason="no heartbeat event"`) }
	// A few heartbeats pass without a restart: the file is rewritten at
	// each, after the check that its event came.
	r.waitHeartbeats(2)
	if n := restarts(); n != 0 {
		t.Fatalf("%d restarts of a watcher that works:\n%s", n, logs.String())
	}
	r.quiet()
	// Break the watcher as a lost inotify instance would: drop its watches
	// on the data dir and days/. The heartbeat's event (the heartbeat file
	// is in the data dir, not in days/) then never arrives, and the
	// Watcher starts again.
	r.w.unwatch(t, r.root)
	r.w.unwatch(t, filepath.Join(r.root, DaysDir))
	waitFor(t, "a restart for want of heartbeat events", func() bool { return restarts() > 0 })
	r.w.ctl <- func(*fsnotify.Watcher) {} // the restart, in the same turn of the loop, is over
	// A new year folder needs the watch on days/: only a restart brings it back.
	r.write("2027-01-05", "seen after the restart")
	r.expect("2027-01-05")
	if _, err := os.Stat(filepath.Join(r.root, DaysDir, HeartbeatName)); !os.IsNotExist(err) {
		t.Errorf("a heartbeat file is in days/ (err %v): sync tools and git would carry it", err)
	}
	if _, err := os.Stat(filepath.Join(r.root, HeartbeatName)); err != nil {
		t.Errorf("no heartbeat file in the data dir: %v", err)
	}
}

// TestWatchBrokenWatcherDoesNotSpin closes the fsnotify watcher while the data
// dir is away, so that starting a new one fails: the Watcher must not keep
// reading the closed channels (a busy loop restarting thousands of times),
// and must start again once the data dir is back.
func TestWatchBrokenWatcherDoesNotSpin(t *testing.T) {
	var logs logtest.Buffer
	log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	r := newWatchRig(t, WatchOptions{Heartbeat: 200 * time.Millisecond, Log: log}, "2026-03-04")
	away := r.root + ".away"
	if err := os.Rename(r.root, away); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	r.w.ctl <- func(fw *fsnotify.Watcher) { fw.Close() }
	failed := func() int { return strings.Count(logs.String(), "level=ERROR msg=\"restarting the watcher\"") }
	for failed() == 0 {
		r.w.ctl <- func(*fsnotify.Watcher) {} // one turn of the Watcher's loop
	}
	for range 50 {
		r.w.ctl <- func(*fsnotify.Watcher) {}
	}
	// One failure, and at most one more per retry period since.
	if n, most := failed(), 2+int(time.Since(start)/(200*time.Millisecond)); n > most {
		t.Fatalf("%d failed restarts in %v, want at most %d: the Watcher spins on the closed watcher", n, time.Since(start), most)
	}
	if err := os.Rename(away, r.root); err != nil {
		t.Fatal(err)
	}
	r.write("2026-03-05", "written while the watcher was down")
	r.expect("2026-03-05")
}

// Rescan asks the Watcher to compare every day file with what it last saw,
// as it does itself after an event overflow. What differs is reported
// Debounce later, as after an event.
func (w *Watcher) Rescan() {
	select {
	case w.rescanReq <- struct{}{}:
	default:
	}
}
