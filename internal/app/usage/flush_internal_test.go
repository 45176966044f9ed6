package usage

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/daybook/daybook/internal/util/filelock"
)

// TestCountsDuringAFlush checks that the records a flush is writing still
// count while the file is locked and written: a context built meanwhile
// scores with them, as it does before and after.
func TestCountsDuringAFlush(t *testing.T) {
	s, err := Open(t.TempDir(), Options{Interval: -1, FlushAfter: 1000})
	if err != nil {
		t.Fatal(err)
	}
	s.Record("day:2026-03-10", "day:2026-03-10")
	// Another process holds the file: the flush takes the batch, then waits.
	if err := os.MkdirAll(filepath.Dir(s.Path()), 0o700); err != nil {
		t.Fatal(err)
	}
	unlock, err := filelock.LockPath(s.Path()+".lock", 0o644)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Flush() }()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		s.mu.Lock()
		taken := len(s.pending) == 0
		s.mu.Unlock()
		if taken {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the flush never took the batch")
		}
	}
	if got := s.Get("day:2026-03-10").N; got != 2 {
		t.Errorf("during the flush Get = %d, want 2", got)
	}
	if got := s.Counts()["day:2026-03-10"].N; got != 2 {
		t.Errorf("during the flush Counts = %d, want 2", got)
	}
	unlock()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := s.Get("day:2026-03-10").N; got != 2 {
		t.Errorf("after the flush Get = %d, want 2", got)
	}
}
