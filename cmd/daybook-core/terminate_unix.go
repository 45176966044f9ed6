//go:build unix

package main

import (
	"os"
	"syscall"
)

// terminate asks p to stop as Ctrl-C or a service manager would: SIGTERM.
func terminate(p *os.Process) error { return p.Signal(syscall.SIGTERM) }
