package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/adapters/api/apiclient"
)

// AnswerTimeout bounds waiting for the daemon's brief status once the
// socket accepted the connection. The daemon answers it without reading
// anything, so only a machine starved of CPU makes it slow; a daemon that
// is there is waited for rather than bypassed, since writing to the files
// behind a running daemon's back is what the socket exists to avoid.
var AnswerTimeout = 30 * time.Second

// DialDaemon returns a client of the daemon on the configured socket when
// one answers for e's data dir. It returns nil and why not when no daemon
// listens there, or when the daemon there serves another data dir: two
// data dirs may share $XDG_RUNTIME_DIR's socket, and the daemon of the other
// must not be written to. A daemon that accepts the connection but does not
// answer is an error. e must be loaded; cancelling ctx (Ctrl-C) stops the
// wait for an answer.
func DialDaemon(ctx context.Context, e *Env) (*apiclient.Client, string, error) {
	path := e.OSEnv.SocketPath(e.Cfg, e.AbsDir)
	log := e.Logger()
	if fi, err := os.Lstat(path); err != nil || fi.Mode().Type() != os.ModeSocket {
		return nil, "no socket at " + path, nil
	}
	c := apiclient.New(path)
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, AnswerTimeout)
	defer cancel()
	var st daybook.StatusResponse
	var err error
	for {
		st, err = c.Status(ctx, daybook.StatusRequest{Brief: true})
		if err == nil || !busy(err) || ctx.Err() != nil {
			break
		}
		// A full listen queue, or a connection reset as a daemon stops:
		// ask again until it answers or is gone.
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		c.Close()
		switch {
		case apiclient.NoListener(err):
			log.Debug("no daemon answers; using the files", "socket", path, "err", err)
			return nil, "no daemon answers on " + path, nil
		case parent.Err() != nil:
			return nil, "", fmt.Errorf("asking the daemon on %s for its status: %w", path, parent.Err())
		case ctx.Err() != nil:
			return nil, "", fmt.Errorf("the daemon on %s took the connection but did not answer in %s "+
				"(is it stuck? restart it, with \"daybook service restart\" if it runs as a service, and try again)", path, AnswerTimeout)
		}
		return nil, "", fmt.Errorf("asking the daemon on %s for its status: %w (is a daybook daemon of this version listening there?)", path, err)
	}
	if !apiclient.SameDir(st.DataDir, e.AbsDir) {
		c.Close()
		log.Debug("the daemon on the socket serves another data dir; using the files",
			"socket", path, "daemon_dir", st.DataDir, "dir", e.AbsDir)
		return nil, fmt.Sprintf("the daemon on %s serves %s", path, st.DataDir), nil
	}
	log.Debug("using the daemon", "socket", path, "pid", st.Daemon.PID)
	// Every request names the data dir, so that a daemon started on
	// another since this status refuses it (daybook.CodeOtherDir).
	return c.ForDir(e.AbsDir), "", nil
}

// busy reports whether err is worth asking again: the daemon's listen queue
// is full, or it reset the connection (as it does while it stops).
func busy(err error) bool {
	return errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.ECONNRESET)
}
