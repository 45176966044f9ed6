//go:build unix

package main

import (
	"os"
	"syscall"
)

// runCore replaces this process with daybook-core run with args: the same
// pid, streams and signals, so that a service manager, an MCP client or a
// shell sees one process. It returns only when that fails.
func runCore(args []string) int {
	core, err := corePath()
	if err != nil {
		return fail("%v", err)
	}
	err = syscall.Exec(core, append([]string{core}, args...), os.Environ())
	return fail("running %s: %v", core, err)
}
