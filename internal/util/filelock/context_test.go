package filelock_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/daybook/daybook/internal/util/filelock"
)

// A waiter gives up when its context ends while the lock is held, and takes
// the lock once it is free.
func TestLockPathContext(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	unlock, err := filelock.LockPathContext(context.Background(), path, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if _, err := filelock.LockPathContext(ctx, path, 0o600); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("waiting on a held lock: %v, want the context's deadline", err)
	}
	unlock()
	again, err := filelock.LockPathContext(context.Background(), path, 0o600)
	if err != nil {
		t.Fatalf("a free lock: %v", err)
	}
	again()
}
