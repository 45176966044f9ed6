package daemon

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/daybooktest"
	"github.com/daybook/daybook/internal/util/filelock"
)

// A consolidation that finds the lock busy tries again after Options.Retry;
// Close stops those retries: none runs after Close returns. The lock is
// held as another daybook process holds it, by a file lock on its file.
func TestBusyRetriesStopAtClose(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		var lb logBuf
		cfg := testConfig(t, "UTC")
		a := newTestApp(t, dir, cfg, &lb, nil)
		yesterday := a.Today().AddDays(-1)
		daybooktest.WriteDay(t, dir, yesterday.String(), daybooktest.Hourly("Chose Argon2 over bcrypt")...)

		holder, err := os.OpenFile(filepath.Join(dir, consolidate.LockFile), os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		defer holder.Close()
		if err := filelock.TryLock(holder); err != nil {
			t.Fatal(err)
		}

		// No index: bleve starts a package-level analysis goroutine outside the bubble.
		d, err := newDaemon(a, consolidatorFor(a), Options{NoWatch: true, NoIndex: true, JumpEvery: -1, Retry: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Run(); err != nil {
			t.Fatal(err)
		}
		d.work.changed([]date.Date{yesterday}) // an edit: on_edit finds the lock busy too
		time.Sleep(cfg.Consolidate.Debounce + time.Second)
		synctest.Wait()
		if n := strings.Count(lb.String(), "consolidation busy; retrying later"); n != 2 {
			t.Fatalf("%d busy retries scheduled, want the backfill's and on_edit's:\n%s", n, lb.String())
		}
		if err := d.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		// What a retry does is queue its work again: after Close, nothing is.
		time.Sleep(10 * time.Minute)
		synctest.Wait()
		d.work.mu.Lock()
		queued, edited := len(d.work.queue), len(d.work.edited)
		d.work.mu.Unlock()
		if queued != 0 || edited != 0 {
			t.Errorf("after Close, retries queued %d tasks and %d edited days", queued, edited)
		}
	})
}
