package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/util/httpserve"
	"github.com/daybook/daybook/internal/util/logkey"
)

const (
	// probeTimeout bounds asking a leftover socket whether anyone answers.
	probeTimeout = 500 * time.Millisecond
	// whoTimeout bounds asking the daemon on a socket in use who it is,
	// to say so in the error.
	whoTimeout = 5 * time.Second
)

// SocketServer serves an http.Handler on a Unix socket that only its user
// may use: the socket is 0600, and its folder 0700 when the server creates it.
type SocketServer struct {
	path string
	ln   net.Listener
	srv  *http.Server
	log  *slog.Logger
}

// NewSocketServer listens on path. A leftover socket at path is removed if
// nothing answers on it; a socket that answers belongs to a running daemon
// and is an error, and so is anything at path that is not a socket.
func NewSocketServer(path string, h http.Handler, log *slog.Logger) (*SocketServer, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log = log.With(logkey.System, "socket")
	if err := prepareSocketDir(filepath.Dir(path)); err != nil {
		return nil, err
	}
	if err := clearStaleSocket(path, log); err != nil {
		return nil, err
	}
	ln, err := listenPrivate(path)
	if err != nil {
		return nil, err
	}
	srv := httpserve.New(h, log)
	return &SocketServer{path: path, ln: ln, srv: srv, log: log}, nil
}

// Serve answers requests until Close; it returns nil after Close.
func (s *SocketServer) Serve() error {
	s.log.Info("serving", "socket", s.path)
	return httpserve.Serve(s.srv, s.ln, "socket "+s.path)
}

// Close stops accepting, waits for the requests under way until ctx ends,
// then drops the connections left; the socket file is removed.
func (s *SocketServer) Close(ctx context.Context) error {
	err := httpserve.Shutdown(ctx, s.srv, s.ln, "socket "+s.path)
	// The socket was bound under another name and renamed into place, so the
	// listener does not remove it: remove it here.
	if rerr := os.Remove(s.path); rerr != nil && !errors.Is(rerr, os.ErrNotExist) && err == nil {
		err = fmt.Errorf("removing socket %s: %w", s.path, rerr)
	}
	return err
}

// prepareSocketDir creates the socket's folder, readable only by its owner.
// A folder that exists is left as it is: it may be the data dir or a
// folder the user chose.
func prepareSocketDir(dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating socket folder: %w", err)
	}
	// MkdirAll's mode is filtered by the umask; say exactly what we mean.
	if err := os.Chmod(dir, 0o700); err != nil {
		return fmt.Errorf("restricting socket folder %s to its owner: %w", dir, err)
	}
	return nil
}

// clearStaleSocket removes a socket nobody answers on, as a daemon that
// died leaves it; it refuses to touch anything else.
func clearStaleSocket(path string, log *slog.Logger) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("checking socket path: %w", err)
	}
	if fi.Mode().Type() != os.ModeSocket {
		return fmt.Errorf("socket path %s exists and is not a socket (%s); move it away or set socket.path", path, describeMode(fi.Mode()))
	}
	conn, err := net.DialTimeout("unix", path, probeTimeout)
	if err == nil {
		conn.Close()
		return fmt.Errorf("socket %s: %s is answering on it; stop it, or give this data dir's daemon a socket "+
			"of its own: socket.path in the config (daybook help lists where the config is)", path, whoAnswers(path))
	}
	if !api.NoListener(err) {
		// A full listen queue (EAGAIN) or a timeout is a daemon that is
		// there but busy: its socket is not stale.
		return fmt.Errorf("socket %s: cannot tell whether a daemon answers on it: %w", path, err)
	}
	log.Info("removing stale socket", "socket", path, "dial_err", err)
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("removing stale socket: %w", err)
	}
	return nil
}

// whoAnswers names the daemon answering on the socket at path: its pid and
// data dir, as its status says them, when it answers a status in
// whoTimeout.
func whoAnswers(path string) string {
	c := api.NewClient(path)
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), whoTimeout)
	defer cancel()
	st, err := c.Status(ctx, daybook.StatusRequest{Brief: true})
	if err != nil || st.Daemon.PID == 0 {
		return "another daemon"
	}
	return fmt.Sprintf("another daemon (pid %d, data dir %s)", st.Daemon.PID, st.DataDir)
}

func describeMode(m os.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a folder"
	case m&os.ModeSymlink != 0:
		return "a symbolic link"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	default:
		return "mode " + m.String()
	}
}

// listenPrivate listens on a Unix socket at path that no other user can
// connect to at any moment: it binds inside a fresh 0700 folder beside path,
// sets the socket to 0600, then renames it into place. Binding at path and
// then chmod-ing it would leave it open, for a moment, to what the umask
// allows in a folder others can enter.
func listenPrivate(path string) (net.Listener, error) {
	tmpDir, err := os.MkdirTemp(filepath.Dir(path), ".sock-")
	if err != nil {
		return nil, fmt.Errorf("listening on socket %s: %w", path, err)
	}
	defer os.RemoveAll(tmpDir)
	tmp := filepath.Join(tmpDir, "s")
	ln, err := net.Listen("unix", tmp)
	if err != nil {
		return nil, fmt.Errorf("listening on socket %s: %w", path, err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	if err := os.Chmod(tmp, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("restricting socket %s to its owner: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		ln.Close()
		return nil, fmt.Errorf("putting socket %s in place: %w", path, err)
	}
	return ln, nil
}
