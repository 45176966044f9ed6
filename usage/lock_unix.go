//go:build unix

package usage

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// lockPath takes an exclusive flock(2) on the file at path, creating it,
// waiting for another process to let go; the returned func releases it.
func lockPath(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}
