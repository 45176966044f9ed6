package consolidate

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// LockFile is the file under the data dir a consolidation holds locked.
const LockFile = ".consolidate.lock"

// BusyError says another consolidation holds the data dir.
type BusyError struct {
	PID int // 0 when the holder had not written its pid yet
}

func (e *BusyError) Error() string {
	if e.PID == 0 {
		return "a consolidation is already running"
	}
	return fmt.Sprintf("a consolidation is already running (pid %d)", e.PID)
}

// lock takes the consolidation lock of the data dir root without waiting: a
// flock on DATA/.consolidate.lock that holds the holder's pid. The returned
// func releases it. The lock goes with the process, so a crash never leaves
// a stale one behind.
func lock(root string) (unlock func(), err error) {
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, fmt.Errorf("creating data dir: %w", err)
	}
	path := filepath.Join(root, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	busy, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	if busy {
		data, _ := os.ReadFile(path)
		f.Close()
		pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
		return nil, &BusyError{PID: pid}
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() {
		f.Truncate(0)
		f.Close() // releases the lock
	}, nil
}
