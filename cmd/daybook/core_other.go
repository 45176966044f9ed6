//go:build !unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
)

// runCore runs daybook-core with args as a child with this process's
// streams, where a process cannot replace itself, and returns its exit code.
func runCore(args []string) int {
	core, err := corePath()
	if err != nil {
		return fail("%v", err)
	}
	cmd := exec.Command(core, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	// Ctrl-C reaches the child too, which stops as it does when run
	// itself; the front waits for it to say how.
	signal.Ignore(os.Interrupt)
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		return fail("running %s: %v", core, err)
	}
	return 0
}
