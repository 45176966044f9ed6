package daemon

import (
	"context"
	"log/slog"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// The index's files are mapped, and every page a search touched stays in
// the daemon's resident set, most of the index after a hundred recalls:
// a trim lets go of those too (the pages stay in the page cache).
//
// A daemon's heap has a floor it keeps (the index's vectors, ~93 MiB of
// 5 years) and waves above it: opening the index reads a 240 MB image,
// a burst of recalls leaves garbage. Go's runtime returns freed memory to
// the system slowly and lets the heap grow to twice what is live before it
// collects, so a daemon at rest after 100 recalls still held 160 MiB of
// anonymous memory for 105 MiB live. The daemon gives that back when it
// can: after the index opens, and when a periodic look finds enough above
// what is live.

// trimEvery is how often the daemon looks for memory to give back.
const trimEvery = 30 * time.Second

// trimMin is how much the daemon allocates before a look gives memory back:
// a daemon at rest allocates only what its catch-up does (a few MiB a
// minute), so it pays for a collection every several minutes.
const trimMin = 16 << 20

// allocated returns the bytes allocated since the process started.
func allocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// trimmer gives memory back once enough was allocated since it last did.
// Its methods are safe for concurrent use.
type trimmer struct {
	mu   sync.Mutex
	last uint64
	// drop, if set, lets go of mapped file pages (the index's) as the heap's
	// free memory is given back.
	drop func() int64
}

// trim collects and returns free memory to the system when min bytes or
// more were allocated since its last trim; it reports whether it did.
func (t *trimmer) trim(min uint64) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if allocated()-t.last < min {
		return false
	}
	debug.FreeOSMemory()
	if t.drop != nil {
		t.drop()
	}
	t.last = allocated()
	return true
}

// loop trims every interval until ctx ends.
func (t *trimmer) loop(ctx context.Context, every time.Duration, log *slog.Logger) {
	tick(ctx, every, func() {
		if t.trim(trimMin) {
			log.Debug("gave memory back")
		}
	})
}
