package dayfiles

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// waitBlockedFlock waits until /proc/locks shows a flock waiting for the one
// held on f's inode (a line "N: -> FLOCK ... dev:inode ..."). Where there is
// no /proc/locks, the test is skipped: nothing else tells that another
// goroutine blocks in flock(2).
func waitBlockedFlock(t *testing.T, f *os.File) {
	t.Helper()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	ino := ":" + strconv.FormatUint(st.Ino, 10) + " "
	waitFor(t, "a flock blocked on inode"+ino, func() bool {
		data, err := os.ReadFile("/proc/locks")
		if err != nil {
			t.Skipf("cannot tell that a lock blocks: %v", err)
		}
		for _, l := range strings.Split(string(data), "\n") {
			if strings.Contains(l, "-> FLOCK") && strings.Contains(l, ino) {
				return true
			}
		}
		return false
	})
}
