//go:build !unix

package main

// forward hands no command to a daemon where there are no Unix sockets to
// reach it through syscall: daybook-core runs every command.
func forward(args []string, g globals) (code int, ok bool) { return 0, false }

// hook leaves a hook to daybook-core, with the stdin the front did not read.
func hook(args []string, g globals, event string) (code int, ok bool) { return 0, false }
