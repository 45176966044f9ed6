//go:build !unix

package main

// warnForeignOwner does nothing where there is no root user.
func warnForeignOwner(*env) {}
