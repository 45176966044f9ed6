package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/daybook/daybook/internal/util/filelock"
)

// The open lock: DATA/index.lock, beside the index folder, not in it (a
// folder moved aside or removed would take its lock with it). Open takes it
// before it reads anything of the index, and Close lets go of it only once
// everything is written, so that no process reads the index while another
// creates, clears, moves aside or closes it. Bolt's lock on
// bleve/store/root.bolt is not enough on its own: Open read meta.json before
// taking it, creating an index lets go of it between bleve.New and the
// reopen, clearing one lets go of it before the files are removed, and a
// closing index held it only until bleve closed. A second Open that came in
// those moments read a half-made index and moved it aside as broken.

// lockPath returns the open lock's path for the index folder dir.
func lockPath(dir string) string { return filepath.Clean(dir) + ".lock" }

// lockPoll is how often a waiting Open tries the open lock again.
const lockPoll = 10 * time.Millisecond

// takeOpenLock takes the open lock of dir, waiting up to timeout for
// another process to let go of it; it returns ErrBusy when it does not.
func takeOpenLock(dir string, timeout time.Duration) (*os.File, error) {
	path := lockPath(dir)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("creating the data folder: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening the index lock: %w", err)
	}
	deadline := time.Now().Add(timeout)
	for {
		err := filelock.TryLock(f)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, filelock.ErrBusy) {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		if !time.Now().Before(deadline) {
			f.Close()
			return nil, fmt.Errorf("%w (waited %s for %s)", ErrBusy, timeout, path)
		}
		time.Sleep(lockPoll)
	}
}
