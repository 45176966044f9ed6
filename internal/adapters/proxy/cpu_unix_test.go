//go:build unix

package proxy_test

import (
	"time"

	"golang.org/x/sys/unix"
)

// cpuTime returns the CPU time this process used so far, user and system.
func cpuTime() time.Duration {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
