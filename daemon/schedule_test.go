package daemon

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

func TestJumpWatch(t *testing.T) {
	var offset atomic.Int64
	now := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	jumps := make(chan time.Duration, 10)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		jumpWatch(ctx, 10*time.Millisecond, time.Minute, now, func(s time.Duration) { jumps <- s })
		close(done)
	}()
	defer func() { cancel(); <-done }()
	select {
	case s := <-jumps:
		t.Fatalf("jump %v while the clocks agree", s)
	case <-time.After(100 * time.Millisecond):
	}
	// The machine slept three hours: the wall clock moved, the monotonic did not.
	offset.Store(int64(3 * time.Hour))
	select {
	case s := <-jumps:
		if s < 3*time.Hour-time.Second || s > 3*time.Hour+time.Second {
			t.Fatalf("skew %v, want about 3h", s)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("no jump noticed")
	}
	// Someone set the clock back.
	offset.Store(int64(-2 * time.Hour))
	select {
	case s := <-jumps:
		if s > -5*time.Hour+time.Second || s < -5*time.Hour-time.Second {
			t.Fatalf("skew %v, want about -5h", s)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("no backward jump noticed")
	}
}
