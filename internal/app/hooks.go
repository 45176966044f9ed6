package app

import (
	"slices"
	"sync"
)

// hooks is a list of callbacks: NewWith wires the App's own parts (what
// is written reaches the index), and others (the daemon's jobs in status,
// a test) add theirs with OnSummary and OnStatus, perhaps while a request
// runs the list, so adding and reading are guarded.
type hooks[F any] struct {
	mu  sync.Mutex
	fns []F
}

func (h *hooks[F]) add(fn F) {
	h.mu.Lock()
	h.fns = append(h.fns, fn)
	h.mu.Unlock()
}

// list returns the callbacks registered so far; calling them needs no lock.
func (h *hooks[F]) list() []F {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.fns)
}
