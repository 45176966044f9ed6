//go:build unix

package dayfiles

import (
	"os"
	"syscall"
)

// inode returns the inode number of fi, or 0 when the system does not say.
func inode(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
