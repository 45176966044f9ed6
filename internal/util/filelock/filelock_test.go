package filelock

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func open(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestTryLockRefusesASecondOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	a, b := open(t, path), open(t, path)
	if err := TryLock(a); err != nil {
		t.Fatal(err)
	}
	if err := TryLock(b); !errors.Is(err, ErrBusy) {
		t.Fatalf("second open: %v, want ErrBusy", err)
	}
	a.Close()
	if err := TryLock(b); err != nil {
		t.Fatalf("after the holder closed: %v", err)
	}
}

func TestLockWaitsForTheHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	a := open(t, path)
	if err := Lock(a); err != nil {
		t.Fatal(err)
	}
	b := open(t, path)
	got := make(chan error, 1)
	go func() { got <- Lock(b) }()
	// Closing a is what lets the waiter in; until then TryLock on a third
	// open is refused, so the waiter has not taken it either.
	if err := TryLock(open(t, path)); !errors.Is(err, ErrBusy) {
		t.Fatalf("while held: %v, want ErrBusy", err)
	}
	a.Close()
	if err := <-got; err != nil {
		t.Fatalf("waiter: %v", err)
	}
}

func TestLockPathReleases(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	unlock, err := LockPath(path, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := TryLock(open(t, path)); !errors.Is(err, ErrBusy) {
		t.Fatalf("while held: %v, want ErrBusy", err)
	}
	unlock()
	if err := TryLock(open(t, path)); err != nil {
		t.Fatalf("after unlock: %v", err)
	}
}

func TestLockPIDNamesTheHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "daybook.pid")
	p, err := LockPID(path, 4242)
	if err != nil {
		t.Fatal(err)
	}
	// The holder's lock must leave the pid readable by others: on Windows a
	// lock on byte 0 would refuse this read.
	data, err := os.ReadFile(path)
	if err != nil || string(data) != "4242\n" {
		t.Fatalf("pid file holds %q (%v)", data, err)
	}
	_, err = LockPID(path, 777)
	var be *BusyError
	if !errors.As(err, &be) || be.PID != 4242 || be.Path != path || !errors.Is(err, ErrBusy) {
		t.Fatalf("second lock: %v, want a BusyError naming pid 4242", err)
	}
	if err := p.Release(); err != nil {
		t.Fatal(err)
	}
	p2, err := LockPID(path, 777)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	defer p2.Release()
	if data, _ := os.ReadFile(path); string(data) != "777\n" {
		t.Fatalf("pid file holds %q after takeover", data)
	}
}

func TestLockPIDTakesOverALeftoverFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "daybook.pid")
	// A process killed with SIGKILL leaves its pid behind but no lock.
	if err := os.WriteFile(path, []byte("99999999\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := LockPID(path, 5)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	if data, _ := os.ReadFile(path); string(data) != "5\n" {
		t.Fatalf("pid file holds %q", data)
	}
}

func TestBusyWithoutPID(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	if err := TryLock(open(t, path)); err != nil {
		t.Fatal(err)
	}
	_, err := LockPID(path, 1)
	var be *BusyError
	if !errors.As(err, &be) || be.PID != 0 {
		t.Fatalf("got %v, want a BusyError with no pid", err)
	}
}
