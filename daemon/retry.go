package daemon

import (
	"sync"
	"time"
)

// retries are the timers that run work again after the consolidation lock
// was busy. Close stops them and waits for one already firing, so that no
// retry touches the worker after the daemon stopped.
type retries struct {
	mu     sync.Mutex
	closed bool
	timers map[*time.Timer]struct{}
	wg     sync.WaitGroup // a timer scheduled and not stopped, or firing
}

// after runs fn after delay, unless close came first.
func (r *retries) after(delay time.Duration, fn func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	if r.timers == nil {
		r.timers = map[*time.Timer]struct{}{}
	}
	r.wg.Add(1)
	var t *time.Timer
	t = time.AfterFunc(delay, func() {
		defer r.wg.Done()
		r.mu.Lock()
		closed := r.closed
		delete(r.timers, t)
		r.mu.Unlock()
		if !closed {
			fn()
		}
	})
	r.timers[t] = struct{}{}
}

// close stops every timer and waits for those already firing.
func (r *retries) close() {
	r.mu.Lock()
	r.closed = true
	for t := range r.timers {
		if t.Stop() {
			r.wg.Done() // it will not fire
		}
	}
	r.timers = nil
	r.mu.Unlock()
	r.wg.Wait()
}
