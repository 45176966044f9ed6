//go:build windows

package daemon

import (
	"os"

	"golang.org/x/sys/windows"
)

// tryLock takes an exclusive lock on one byte of f far past the pid, so that
// others can still read the pid, without waiting; held is false when another
// process has it.
func tryLock(f *os.File) (held bool, err error) {
	ol := &windows.Overlapped{Offset: 1 << 30}
	err = windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	switch err {
	case nil:
		return true, nil
	case windows.ERROR_LOCK_VIOLATION:
		return false, nil
	default:
		return false, err
	}
}
