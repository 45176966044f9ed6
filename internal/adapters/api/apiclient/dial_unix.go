//go:build unix

package apiclient

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"time"
)

// dial connects to the Unix socket at path with the system calls
// themselves rather than the net package, which would link the C library
// into the front on a machine with a C compiler (a tenth of its start).
// The socket is non-blocking, so that the file's reads and writes wait in
// the runtime's poller and take deadlines.
func dial(ctx context.Context, path string, timeout time.Duration) (conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return nil, fmt.Errorf("dial unix %s: %w", path, os.NewSyscallError("socket", err))
	}
	syscall.CloseOnExec(fd)
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("dial unix %s: %w", path, os.NewSyscallError("setnonblock", err))
	}
	// A Unix socket connects at once, or says why not: EAGAIN is a full
	// listen queue, a daemon too busy to accept.
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: path}); err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("dial unix %s: %w", path, os.NewSyscallError("connect", err))
	}
	return os.NewFile(uintptr(fd), "unix:"+path), nil
}

// alive reports whether an idle connection may carry another request: the
// daemon has not closed it (which a peek would read as end of file) and
// sent nothing unasked.
func alive(c conn) bool {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	ok = false
	var b [1]byte
	rc.Read(func(fd uintptr) bool {
		n, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		ok = n < 0 && (err == syscall.EAGAIN || err == syscall.EWOULDBLOCK)
		return true
	})
	return ok
}
