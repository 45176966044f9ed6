package daemon

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daybook/daybook/internal/util/filelock"
)

func TestPIDLock(t *testing.T) {
	dir := t.TempDir()
	l, err := LockPID(dir, 4242)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, PIDFile))
	if string(data) != "4242\n" {
		t.Fatalf("pid file holds %q", data)
	}
	// flock locks belong to the open file, so a second open in this
	// process is refused as another process would be.
	_, err = LockPID(dir, 777)
	var le *LockedError
	if !errors.As(err, &le) || le.PID != "4242" || !errors.Is(err, filelock.ErrBusy) || !strings.Contains(err.Error(), "pid 4242") || !strings.Contains(err.Error(), dir) {
		t.Fatalf("second lock: %v", err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	l2, err := LockPID(dir, 777)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	defer l2.Release()
	data, _ = os.ReadFile(filepath.Join(dir, PIDFile))
	if string(data) != "777\n" {
		t.Fatalf("pid file holds %q after takeover", data)
	}
}
