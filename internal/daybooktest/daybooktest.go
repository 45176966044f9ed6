// Package daybooktest holds what tests and benchmarks of several packages
// use to make a data dir, in the spirit of net/http/httptest: day files
// written by hand (WriteDay, WriteFile) and entries appended as daybook
// appends them (Append, AppendMany), on dayfiles' exported ByDay, LockDay
// and Locked.Append. It imports dayfiles only, so that the in-package
// tests of every package above dayfiles (index, merge, recall, consolidate)
// can use it; package apptest builds Apps. Clock and ModTimes (clock.go)
// are the settable clock and the modification-time walk several packages'
// tests share.
package daybooktest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// WriteDay writes day's file (YYYY-MM-DD) under the data dir root, as a
// person in an editor would: the title, a blank line, then lines, each
// ending in a newline. It replaces what was there and returns the path.
func WriteDay(t testing.TB, root, day string, lines ...string) string {
	t.Helper()
	d, err := date.Parse(day)
	if err != nil {
		t.Fatal(err)
	}
	body := dayfiles.Title(d) + "\n\n"
	for _, l := range lines {
		body += l + "\n"
	}
	p := dayfiles.Path(root, d)
	writeFile(t, p, body)
	return p
}

// WriteFile writes content to rel (slashed, relative to root), creating
// its folders: a day file with a title of its own, or a file that is not a
// day file at all.
func WriteFile(t testing.TB, root, rel, content string) string {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	writeFile(t, p, content)
	return p
}

func writeFile(t testing.TB, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Hourly returns one entry line per text, "- 08:00 text", then 09:00 and
// on, for WriteDay.
func Hourly(texts ...string) []string {
	out := make([]string, len(texts))
	for i, s := range texts {
		out[i] = "- " + time.Date(0, 1, 1, 8+i, 0, 0, 0, time.UTC).Format("15:04") + " " + s
	}
	return out
}

// Append appends e to its day file under root as AppendMany does.
func Append(root string, loc *time.Location, e dayfiles.NewEntry) (dayfiles.Written, error) {
	w, err := AppendMany(root, loc, []dayfiles.NewEntry{e})
	if err != nil {
		return dayfiles.Written{}, err
	}
	return w[0], nil
}

// AppendMany appends entries to their day files under root, one locked
// write per day (dayfiles.LockDay, Locked.Append), in the order given within
// each day, creating folders and title lines as needed. It keeps no merge
// base: daybook itself appends through package merge's Keeper.
func AppendMany(root string, loc *time.Location, entries []dayfiles.NewEntry) ([]dayfiles.Written, error) {
	batches, err := dayfiles.ByDay(loc, entries)
	if err != nil {
		return nil, err
	}
	out := make([]dayfiles.Written, len(entries))
	for _, b := range batches {
		l, err := dayfiles.LockDay(root, b.Date, true)
		if err != nil {
			return out, err
		}
		ws, err := l.Append(b.Lines, nil)
		l.Close()
		if err != nil {
			return out, err
		}
		for k, i := range b.Index {
			out[i] = ws[k]
		}
	}
	return out, nil
}

// Entries appends one entry per text to day's file under root, in UTC, at
// 09:00, 09:01 and on, and fails t on an error.
func Entries(t testing.TB, root, day string, texts ...string) {
	t.Helper()
	d, err := date.Parse(day)
	if err != nil {
		t.Fatal(err)
	}
	es := make([]dayfiles.NewEntry, len(texts))
	for i, s := range texts {
		es[i] = dayfiles.NewEntry{At: d.At(9, i, time.UTC), Text: s}
	}
	if _, err := AppendMany(root, time.UTC, es); err != nil {
		t.Fatal(err)
	}
}

// WaitMtimePast waits until a file written now gets a later modification
// time than newest, so that a rewrite of a file last written at newest
// shows in its time, however coarse the file system's clock. The probe file
// is in a temp dir of t, on the file system of t's other temp dirs.
func WaitMtimePast(t testing.TB, newest time.Time) {
	t.Helper()
	probe := filepath.Join(t.TempDir(), "mtime-probe")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if err := os.WriteFile(probe, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(probe)
		if err != nil {
			t.Fatal(err)
		}
		if fi.ModTime().After(newest) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("a file written now still gets the mtime %v, not after %v", fi.ModTime(), newest)
		}
	}
}

// Newest returns the latest of times.
func Newest[K comparable](times map[K]time.Time) time.Time {
	var newest time.Time
	for _, mt := range times {
		if mt.After(newest) {
			newest = mt
		}
	}
	return newest
}
