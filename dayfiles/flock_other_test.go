//go:build !linux

package dayfiles

import (
	"os"
	"testing"
)

// waitBlockedFlock skips t: only Linux's /proc/locks tells that another
// goroutine blocks in flock(2).
func waitBlockedFlock(t *testing.T, _ *os.File) {
	t.Skip("only /proc/locks (Linux) tells that a lock blocks")
}
