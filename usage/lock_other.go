//go:build !unix

package usage

import "os"

// lockPath creates the lock file; without flock(2) only the Store's own
// mutex orders flushes, which is enough for one process.
func lockPath(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	return func() { f.Close() }, nil
}
