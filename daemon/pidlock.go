package daemon

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/daybook/daybook/internal/util/filelock"
)

// PIDFile is the lock file in the data dir that one daemon holds.
const PIDFile = "daybook.pid"

// LockedError says another daemon holds the data dir.
type LockedError struct {
	PID  string // as the pid file holds it; "unknown" when it is empty
	Dir  string
	Path string // the pid file
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("a daemon (pid %s) already runs on %s (lock %s)", e.PID, e.Dir, e.Path)
}

// Is makes errors.Is(err, filelock.ErrBusy) true for a *LockedError.
func (e *LockedError) Is(target error) bool { return target == filelock.ErrBusy }

// PIDLock is a held lock on DATA/daybook.pid, which holds the daemon's pid.
// The lock is the file lock, not the file: a daemon killed without cleaning
// up leaves the file, and the next one takes it over.
type PIDLock struct{ f *filelock.PIDFile }

// Release empties the pid file and lets go of the lock; the file stays.
func (l *PIDLock) Release() error {
	if l == nil {
		return nil
	}
	return l.f.Release()
}

// LockPID takes the data dir's pid lock without waiting and writes pid in
// the file. When another process holds it, the error names that pid.
func LockPID(dir string, pid int) (*PIDLock, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating the data dir: %w", err)
	}
	path := filepath.Join(dir, PIDFile)
	l, err := filelock.LockPID(path, pid)
	var busy *filelock.BusyError
	if errors.As(err, &busy) {
		other := "unknown"
		if busy.PID != 0 {
			other = strconv.Itoa(busy.PID)
		}
		return nil, &LockedError{PID: other, Dir: dir, Path: path}
	}
	if err != nil {
		return nil, err
	}
	return &PIDLock{f: l}, nil
}
