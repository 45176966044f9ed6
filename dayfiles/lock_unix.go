//go:build unix

package dayfiles

import (
	"os"

	"golang.org/x/sys/unix"
)

// lockFile takes an exclusive flock(2) on f, waiting for it; closing f releases it.
func lockFile(f *os.File) error {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			return err
		}
	}
}
