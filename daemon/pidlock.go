package daemon

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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

// PIDLock is a held lock on DATA/daybook.pid, which holds the daemon's pid.
// The lock is the flock, not the file: a daemon killed without cleaning up
// leaves the file, and the next one takes it over.
type PIDLock struct {
	f    *os.File
	path string
}

// LockPID takes the data dir's pid lock without waiting and writes pid in
// the file. When another process holds it, the error names that pid.
func LockPID(dir string, pid int) (*PIDLock, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating the data dir: %w", err)
	}
	path := filepath.Join(dir, PIDFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening pid file: %w", err)
	}
	held, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	if !held {
		other := readPID(f)
		f.Close()
		if other == "" {
			other = "unknown"
		}
		return nil, &LockedError{PID: other, Dir: dir, Path: path}
	}
	if err := writePID(f, pid); err != nil {
		f.Close()
		return nil, fmt.Errorf("writing pid file %s: %w", path, err)
	}
	return &PIDLock{f: f, path: path}, nil
}

// Release empties the pid file and lets go of the lock. The file stays, so
// that a starting daemon never locks a file that is about to be removed.
func (l *PIDLock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	l.f.Truncate(0)
	err := l.f.Close()
	l.f = nil
	return err
}

func writePID(f *os.File, pid int) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	if _, err := f.WriteAt([]byte(strconv.Itoa(pid)+"\n"), 0); err != nil {
		return err
	}
	return f.Sync()
}

func readPID(f *os.File) string {
	buf := make([]byte, 32)
	n, _ := f.ReadAt(buf, 0)
	return strings.TrimSpace(string(buf[:n]))
}
