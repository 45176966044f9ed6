package consolidate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/daybook/daybook/internal/util/filelock"
)

// LockFile is the file under the data dir a consolidation holds locked.
const LockFile = ".consolidate.lock"

// BusyError says another consolidation holds the data dir.
type BusyError struct {
	PID int // 0 when the holder had not written its pid yet
}

// Is makes errors.Is(err, filelock.ErrBusy) true for a *BusyError.
func (e *BusyError) Is(target error) bool { return target == filelock.ErrBusy }

func (e *BusyError) Error() string {
	if e.PID == 0 {
		return "a consolidation is already running"
	}
	return fmt.Sprintf("a consolidation is already running (pid %d)", e.PID)
}

// lock takes the consolidation lock of the data dir root without waiting: a
// file lock on DATA/.consolidate.lock that holds the holder's pid. The
// returned func releases it. The lock goes with the process, so a crash never
// leaves a stale one behind.
func lock(root string) (unlock func(), err error) {
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, fmt.Errorf("creating data dir: %w", err)
	}
	l, err := filelock.LockPID(filepath.Join(root, LockFile), os.Getpid())
	var busy *filelock.BusyError
	if errors.As(err, &busy) {
		return nil, &BusyError{PID: busy.PID}
	}
	if err != nil {
		return nil, err
	}
	return func() { l.Release() }, nil
}
