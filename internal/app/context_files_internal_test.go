package app

import (
	"testing"

	"github.com/daybook/daybook/consolidate"
)

// TestEvictOldestKeepsTheRecentlyUsed checks that a full cache drops its
// least recently used files, not every file: a conversation's next turn
// reads again the days the last turns read.
func TestEvictOldestKeepsTheRecentlyUsed(t *testing.T) {
	cache := map[string]parsedFile[*consolidate.Summary]{}
	for i := range 8 {
		cache[string(rune('a'+i))] = parsedFile[*consolidate.Summary]{used: uint64(10 + i)}
	}
	cache["a"] = parsedFile[*consolidate.Summary]{used: 99} // the oldest, used again just now
	evictOldest(cache, 2)
	if len(cache) != 6 {
		t.Fatalf("%d files kept, want 6 of 8", len(cache))
	}
	for _, k := range []string{"b", "c"} {
		if _, ok := cache[k]; ok {
			t.Errorf("%s, among the two least recently used, was kept", k)
		}
	}
	if _, ok := cache["a"]; !ok {
		t.Error("a, used last, was dropped")
	}
}
