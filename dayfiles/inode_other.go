//go:build !unix

package dayfiles

import "os"

// inode returns 0: the system does not say.
func inode(os.FileInfo) uint64 { return 0 }
