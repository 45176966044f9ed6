//go:build !unix

package cli

// warnForeignOwner does nothing where there is no root user.
func warnForeignOwner(*Env) {}
