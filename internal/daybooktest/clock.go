package daybooktest

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// Clock is a clock tests move by hand, safe for concurrent use: pass its
// Now where a part takes a clock.
type Clock struct{ t atomic.Int64 }

// NewClock returns a Clock at t.
func NewClock(t time.Time) *Clock {
	c := &Clock{}
	c.t.Store(t.UnixNano())
	return c
}

// Now returns the clock's time, in UTC.
func (c *Clock) Now() time.Time { return time.Unix(0, c.t.Load()).UTC() }

// Add moves the clock by d.
func (c *Clock) Add(d time.Duration) { c.t.Add(int64(d)) }

// ModTimes maps every file under root/sub to its modification time, by its
// path relative to root, slashed ("summaries/2026/03.md"); a missing sub
// is an empty map.
func ModTimes(t testing.TB, root, sub string) map[string]time.Time {
	t.Helper()
	out := map[string]time.Time{}
	err := filepath.WalkDir(filepath.Join(root, sub), func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		fi, err := e.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = fi.ModTime()
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}
