//go:build unix

package consolidate

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// tryLock takes an exclusive flock(2) on f without waiting; busy is true
// when another open file holds it.
func tryLock(f *os.File) (busy bool, err error) {
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		switch {
		case err == nil:
			return false, nil
		case errors.Is(err, unix.EWOULDBLOCK):
			return true, nil
		case errors.Is(err, unix.EINTR):
			continue
		default:
			return false, err
		}
	}
}
