//go:build unix

package main

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// terminate asks p to stop as Ctrl-C or a service manager would: SIGTERM.
func terminate(p *os.Process) error { return p.Signal(syscall.SIGTERM) }

// gone reports whether process pid has ended: there is no such process, or
// only its exit status waits to be collected (a zombie, where /proc says).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	_, after, ok := strings.Cut(string(b), ") ")
	return ok && strings.HasPrefix(after, "Z")
}
