//go:build unix && !linux

package main

import "syscall"

// dupStdin makes fd this process's standard input.
func dupStdin(fd int) error { return syscall.Dup2(fd, 0) }
