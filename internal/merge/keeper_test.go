package merge

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// rig is a data dir and a Keeper on it, remade by restart as a new process
// would make it.
type rig struct {
	t    *testing.T
	root string
	logs *bytes.Buffer
	k    *Keeper
}

func newRig(t *testing.T) *rig {
	r := &rig{t: t, root: t.TempDir(), logs: &bytes.Buffer{}}
	r.restart()
	return r
}

func (r *rig) restart() {
	if r.k != nil {
		r.k.Close()
	}
	// A file counts as settled at once: these tests save and merge in
	// turn, with no writer in between (the stalled writer's tests wait).
	r.k = New(r.root, Options{Loc: func() *time.Location { return time.UTC },
		Log: slog.New(slog.NewTextHandler(r.logs, nil)), Settle: time.Nanosecond})
	r.t.Cleanup(r.k.Close)
}

func (r *rig) path() string { return dayfiles.Path(r.root, day) }

func (r *rig) append(hhmm, text string) {
	r.t.Helper()
	at, _ := time.Parse("2006-01-02 15:04", day.String()+" "+hhmm)
	if _, err := r.k.Append([]dayfiles.NewEntry{{At: at, Text: text}}, nil); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rig) read() string {
	b, err := os.ReadFile(r.path())
	if err != nil {
		r.t.Fatal(err)
	}
	return string(b)
}

func (r *rig) save(content string) {
	r.t.Helper()
	tmp := r.path() + ".tmp"
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
	if err := os.Rename(tmp, r.path()); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rig) count(text string) int {
	return texts(r.t, []byte(r.read()))[text]
}

// TestStaleSaveAfterRestart: the base is on disk, so a Keeper made after
// the append (a new daemon) still knows the entry a stale buffer dropped.
func TestStaleSaveAfterRestart(t *testing.T) {
	r := newRig(t)
	r.append("09:00", "Morning standup")
	stale := r.read()
	r.append("09:05", "Deploy of api v2.3 finished, all green")
	r.restart()
	r.save(stale + "- 09:05 Deploy of api v2.3 started\n")
	if wrote := r.k.Changed([]date.Date{day}); len(wrote) != 1 {
		t.Fatalf("Changed appended to %v", wrote)
	}
	r.k.Changed([]date.Date{day}) // a second look adds nothing
	for _, s := range []string{"09:00 Morning standup", "09:05 Deploy of api v2.3 finished, all green", "09:05 Deploy of api v2.3 started"} {
		if n := r.count(s); n != 1 {
			t.Errorf("%q is there %d times:\n%s", s, n, r.read())
		}
	}
	if !strings.HasPrefix(r.read(), stale+"- 09:05 Deploy of api v2.3 started\n") {
		t.Errorf("the person's save is not kept as written:\n%s", r.read())
	}
	if n := Notices(r.root); len(n) != 1 || !strings.Contains(n[0], "finished, all green") {
		t.Errorf("notices %q", n)
	}
	if _, err := os.Stat(filepath.Join(r.root, dayfiles.DaysDir, "state")); !os.IsNotExist(err) {
		t.Errorf("state under days/")
	}
}

// TestDeletionsKeptAcrossRestart: entries older than the newest kept one
// that a person removes stay removed.
func TestDeletionsKeptAcrossRestart(t *testing.T) {
	r := newRig(t)
	for _, s := range []string{"one", "two", "three", "four"} {
		r.append("08:00", s)
	}
	content := strings.Replace(strings.Replace(r.read(), "- 08:00 two\n", "", 1), "- 08:00 one\n", "", 1)
	r.restart()
	r.save(content)
	r.k.Changed([]date.Date{day})
	if r.count("08:00 one")+r.count("08:00 two") != 0 || r.count("08:00 four") != 1 {
		t.Errorf("after deleting one and two:\n%s", r.read())
	}
}

// TestTruncatedFileWaits: an empty file is left alone until it settles.
func TestTruncatedFileWaits(t *testing.T) {
	r := newRig(t)
	r.append("08:00", "one")
	r.append("08:01", "two")
	content := r.read()
	if err := os.WriteFile(r.path(), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if wrote := r.k.Changed([]date.Date{day}); len(wrote) != 0 || r.read() != "" {
		t.Fatalf("the empty file was filled: %v %q", wrote, r.read())
	}
	if err := os.WriteFile(r.path(), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	r.k.Changed([]date.Date{day})
	if r.read() != content {
		t.Errorf("after the save:\n%s", r.read())
	}
}

// TestConflictCopyMerged: a Syncthing copy's entries join the day, and the
// copy leaves days/.
func TestConflictCopyMerged(t *testing.T) {
	r := newRig(t)
	r.append("08:00", "here")
	cp := filepath.Join(filepath.Dir(r.path()), "24.sync-conflict-20261124-101500-ABCDEFG.md")
	if err := os.WriteFile(cp, []byte("# 2026-11-24 Tuesday\n\n- 08:00 here\n- 08:30 there\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := ConflictCopies(r.root); len(got) != 1 {
		t.Fatalf("copies %v", got)
	}
	r.restart()
	r.k.CatchUp()
	if r.count("08:00 here") != 1 || r.count("08:30 there") != 1 {
		t.Errorf("%s", r.read())
	}
	if len(ConflictCopies(r.root)) != 0 {
		t.Errorf("the copy is still in days/")
	}
	if _, err := os.Stat(filepath.Join(r.root, AsideDir, "2026", "11", filepath.Base(cp))); err != nil {
		t.Errorf("the copy was not moved aside: %v", err)
	}
}

// TestAppendsWaitWhileConflicted: an append to a day holding conflict
// markers goes to the pending file, and joins the day once resolved.
func TestAppendsWaitWhileConflicted(t *testing.T) {
	r := newRig(t)
	r.append("08:00", "before")
	r.save(r.read() + "<<<<<<< HEAD\n- 09:00 ours\n=======\n- 09:00 theirs\n>>>>>>> x\n")
	r.append("10:00", "during")
	if strings.Contains(r.read(), "during") {
		t.Fatalf("appended into the conflict:\n%s", r.read())
	}
	r.restart()
	r.save("# 2026-11-24 Tuesday\n\n- 08:00 before\n- 09:00 ours\n- 09:00 theirs\n")
	r.k.Changed([]date.Date{day})
	if r.count("10:00 during") != 1 {
		t.Errorf("the pending entry did not join:\n%s", r.read())
	}
	if n := pendingDays(r.root); len(n) != 0 {
		t.Errorf("pending %v", n)
	}
}

// TestFirstAppendDoesNotWait: the first entry of a day, into a file just
// created, is written at once, with the real settle time.
func TestFirstAppendDoesNotWait(t *testing.T) {
	root := t.TempDir()
	k := New(root, Options{Loc: func() *time.Location { return time.UTC }})
	defer k.Close()
	at, _ := time.Parse("2006-01-02 15:04", day.String()+" 08:00")
	start := time.Now()
	ws, err := k.Append([]dayfiles.NewEntry{{At: at, Text: "first of the day"}}, nil)
	if err != nil || ws[0].Rel != dayfiles.RelPath(day) {
		t.Fatalf("%+v %v", ws, err)
	}
	// Not a timing target: a wait for the file to settle is Settle (2 s)
	// or more, and this append has nothing to wait for.
	if d := time.Since(start); d >= Settle {
		t.Errorf("the first append of a day took %v: it waited for the new file to settle", d)
	}
}

// TestChangingFileSendsEntriesToPending: a day file written in place
// without a pause never settles; an append waits maxSettles times Settle,
// then goes to the pending file (acknowledged), and joins the day once the
// writer stops.
func TestChangingFileSendsEntriesToPending(t *testing.T) {
	root := t.TempDir()
	const settle = 300 * time.Millisecond // well above a busy machine's pauses of the writer
	k := New(root, Options{Loc: func() *time.Location { return time.UTC }, Settle: settle})
	defer k.Close()
	at, _ := time.Parse("2006-01-02 15:04", day.String()+" 08:00")
	if _, err := k.Append([]dayfiles.NewEntry{{At: at, Text: "before the writer"}}, nil); err != nil {
		t.Fatal(err)
	}
	path := dayfiles.Path(root, day)
	content, _ := os.ReadFile(path)
	stop, done, wrote := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() { // a writer that rewrites the file in place, without a pause
		defer close(done)
		content = append(content, "- 07:00 typed by hand\n"...)
		for {
			select {
			case <-stop:
				return
			default:
			}
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				t.Error(err)
				return
			}
			f.Write(content)
			f.Close()
			select {
			case <-wrote:
			default:
				close(wrote)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	<-wrote
	ws, err := k.Append([]dayfiles.NewEntry{{At: at, Text: "while it writes"}}, nil)
	close(stop)
	<-done
	if err != nil || !strings.HasPrefix(ws[0].Rel, dayfiles.PendingDir) {
		t.Fatalf("%+v %v: want the entry in the pending file", ws, err)
	}
	if n := Notices(root); len(n) != 1 || !strings.Contains(n[0], "kept changing") {
		t.Errorf("notices %q", n)
	}
	if _, err := k.Append([]dayfiles.NewEntry{{At: at, Text: "after the writer"}}, nil); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"08:00 before the writer", "07:00 typed by hand", "08:00 while it writes", "08:00 after the writer"} {
		if n := texts(t, []byte(readDay(t, path)))[s]; n != 1 {
			t.Errorf("%q is there %d times:\n%s", s, n, readDay(t, path))
		}
	}
	if len(pendingDays(root)) != 0 {
		t.Errorf("the pending file is still there")
	}
}

func readDay(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
