// Package filelock takes exclusive locks on open files, one behaviour on every
// system: flock(2) on Unix, LockFileEx on Windows. A lock belongs to the open
// file: closing the file releases it, and so does the death of the process, so
// a crash never leaves a stale lock behind. Two opens of one file in the same
// process exclude each other as two processes do.
//
// On Windows the lock covers one byte far past any content (at Offset), not
// byte 0: Windows locks are mandatory, and a lock on the content would refuse
// other handles the reads that, say, name the pid of a lock's holder.
package filelock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// ErrBusy says another open file holds the lock; test for it with errors.Is.
var ErrBusy = errors.New("locked by another process")

// Offset is where, on Windows, the locked byte lies: past the content of any
// file daybook locks.
const Offset = 1 << 30

// Lock takes an exclusive lock on f, waiting for whoever holds it.
func Lock(f *os.File) error { return lock(f, true) }

// TryLock takes an exclusive lock on f without waiting; it returns ErrBusy
// when another open file holds it.
func TryLock(f *os.File) error { return lock(f, false) }

// LockPath opens the file at path (creating it with mode perm) and locks it,
// waiting. The returned func closes the file, which releases the lock.
func LockPath(path string, perm os.FileMode) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, perm)
	if err != nil {
		return nil, err
	}
	if err := Lock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return func() { f.Close() }, nil
}

// LockPathContext is LockPath that stops waiting when ctx ends: it tries
// the lock, and tries again after a pause that doubles from 1 ms to 20 ms,
// so that a short hold costs a waiter little and a long one no busy loop.
func LockPathContext(ctx context.Context, path string, perm os.FileMode) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, perm)
	if err != nil {
		return nil, err
	}
	wait := time.Millisecond
	for {
		err := TryLock(f)
		if err == nil {
			return func() { f.Close() }, nil
		}
		if !errors.Is(err, ErrBusy) {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("waiting for the lock %s: %w", path, ctx.Err())
		case <-time.After(wait):
		}
		wait = min(2*wait, 20*time.Millisecond)
	}
}

// PIDFile is a held lock on a file that names its holder's pid.
type PIDFile struct {
	f *os.File
}

// BusyError says another process holds a PIDFile; it matches ErrBusy.
type BusyError struct {
	Path string
	PID  int // 0 when the holder had not written its pid yet
}

func (e *BusyError) Error() string {
	if e.PID == 0 {
		return fmt.Sprintf("%s: %v", e.Path, ErrBusy)
	}
	return fmt.Sprintf("%s: %v (pid %d)", e.Path, ErrBusy, e.PID)
}

// Is makes errors.Is(err, ErrBusy) true for a *BusyError.
func (e *BusyError) Is(target error) bool { return target == ErrBusy }

// LockPID opens the file at path (creating it), takes its lock without
// waiting and writes pid in it. When another process holds it, the error is a
// *BusyError naming that process's pid. The file outlives the lock: a process
// killed without cleaning up leaves it, and the next one takes it over.
func LockPID(path string, pid int) (*PIDFile, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	err = TryLock(f)
	if errors.Is(err, ErrBusy) {
		other := readPID(f)
		f.Close()
		return nil, &BusyError{Path: path, PID: other}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	if err := writePID(f, pid); err != nil {
		f.Close()
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	return &PIDFile{f: f}, nil
}

// Release empties the file and lets go of the lock. The file stays, so that a
// starting process never locks a file that is about to be removed.
func (p *PIDFile) Release() error {
	if p == nil || p.f == nil {
		return nil
	}
	p.f.Truncate(0)
	err := p.f.Close()
	p.f = nil
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

// readPID reads the pid through f, the refused open: the holder's lock does
// not cover the pid's bytes, so this works on Windows too.
func readPID(f *os.File) int {
	buf := make([]byte, 32)
	n, _ := f.ReadAt(buf, 0)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(buf[:n])))
	return pid
}
