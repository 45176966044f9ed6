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

// runCoreWith is runCore with stdin as daybook-core's standard input, for a
// hook whose input the front read already: an unlinked temporary file
// takes the place of this process's stdin.
func runCoreWith(args []string, stdin []byte) int {
	f, err := os.CreateTemp("", "daybook-hook-*")
	if err != nil {
		return fail("keeping the hook input: %v", err)
	}
	os.Remove(f.Name())
	if _, err := f.Write(stdin); err != nil {
		return fail("keeping the hook input: %v", err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		return fail("keeping the hook input: %v", err)
	}
	if err := dupStdin(int(f.Fd())); err != nil {
		return fail("keeping the hook input: %v", err)
	}
	return runCore(args)
}
