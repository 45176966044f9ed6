//go:build unix

package scan

import (
	"os"
	"slices"

	"golang.org/x/sys/unix"
)

// ReadInto reads the file f into buf, growing it as needed. The size from
// List is a hint: the file may have grown or shrunk since. It calls open(2),
// read(2) and close(2) directly: os.Open would add four fcntl(2) calls and a
// failing epoll_ctl(2) per file, which are most of a scan's system time. A
// read of a regular file that returns less than asked for is at the end of
// the file, which saves the read that would return 0.
func ReadInto(buf []byte, f File) ([]byte, error) {
	fd, err := retryEINTR(func() (int, error) { return unix.Open(f.Path, unix.O_RDONLY|unix.O_CLOEXEC, 0) })
	if err != nil {
		return buf, &os.PathError{Op: "open", Path: f.Path, Err: err}
	}
	defer unix.Close(fd)
	if want := int(f.Size) + 4096; cap(buf) < want {
		buf = make([]byte, 0, want+want/4)
	}
	buf = buf[:0]
	for {
		space := cap(buf) - len(buf)
		n, err := retryEINTR(func() (int, error) { return unix.Read(fd, buf[len(buf):cap(buf)]) })
		if err != nil {
			return buf, &os.PathError{Op: "read", Path: f.Path, Err: err}
		}
		buf = buf[:len(buf)+n]
		if n < space {
			return buf, nil
		}
		buf = slices.Grow(buf, len(buf)) // full: the file grew past the hint
	}
}

func retryEINTR(fn func() (int, error)) (int, error) {
	for {
		n, err := fn()
		if err != unix.EINTR {
			return n, err
		}
	}
}
