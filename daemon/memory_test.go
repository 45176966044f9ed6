package daemon

import (
	"runtime"
	"testing"
)

// TestTrimGivesMemoryBack checks that trim returns a freed allocation to
// the system and does nothing when there is little to give.
func TestTrimGivesMemoryBack(t *testing.T) {
	released := func() uint64 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapReleased
	}
	big := make([]byte, 64<<20)
	for i := range big {
		big[i] = byte(i)
	}
	runtime.KeepAlive(big)
	big = nil
	var tr trimmer
	before := released()
	if !tr.trim(16 << 20) {
		t.Fatal("trim did nothing with 64 MiB of garbage")
	}
	if got := released() - before; got < 32<<20 {
		t.Errorf("trim released %d MiB, want most of 64", got>>20)
	}
	// Right after, less than min was allocated since: no collection. (The
	// count is the process's: a large min keeps other goroutines out of it.)
	if tr.trim(1 << 30) {
		t.Error("a second trim right after, with little allocated, collected again")
	}
}
