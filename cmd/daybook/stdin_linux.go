package main

import "syscall"

// dupStdin makes fd this process's standard input (Linux on arm64 and
// riscv64 has dup3 only).
func dupStdin(fd int) error { return syscall.Dup3(fd, 0, 0) }
