package cli

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/internal/config"
)

// dialEnv returns a loaded env whose socket is path.
func dialEnv(t *testing.T, path string) *Env {
	e := NewEnv(nil, io.Discard, io.Discard)
	e.loaded, e.AbsDir = true, t.TempDir()
	e.Cfg = config.Default()
	e.Cfg.Socket.Path = path
	return e
}

// A daemon that took the connection and does not answer is an error, not a
// reason to write to the files behind its back.
func TestDialDaemonThatDoesNotAnswer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered
		}
	}()
	defer func(d time.Duration) { AnswerTimeout = d }(AnswerTimeout)
	AnswerTimeout = 200 * time.Millisecond
	c, _, err := DialDaemon(context.Background(), dialEnv(t, path))
	if c != nil || err == nil || !strings.Contains(err.Error(), "did not answer") || !strings.Contains(err.Error(), path) {
		t.Fatalf("DialDaemon = %v, %v; want an error naming %s", c, err, path)
	}
	if _, err := dialEnv(t, path).Backend(context.Background()); err == nil {
		t.Fatal("backend used the files beside a daemon that does not answer")
	}
}

// A socket no one listens on is a daemon that is gone: the files are used.
func TestDialDaemonStaleSocket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	if _, err := os.Lstat(path); err != nil {
		t.Fatal(err)
	}
	c, why, err := DialDaemon(context.Background(), dialEnv(t, path))
	if c != nil || err != nil || !strings.Contains(why, "no daemon answers") {
		t.Fatalf("DialDaemon = %v, %q, %v; want no daemon and no error", c, why, err)
	}
}

// Something that is not a daybook daemon answering on the socket is an
// error saying so, not a reason to use the files.
func TestDialDaemonSomethingElseAnswers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.NotFoundHandler()}
	go srv.Serve(ln)
	defer srv.Close()
	c, _, err := DialDaemon(context.Background(), dialEnv(t, path))
	if c != nil || err == nil || !strings.Contains(err.Error(), "is a daybook daemon") || !strings.Contains(err.Error(), path) {
		t.Fatalf("DialDaemon = %v, %v; want an error asking whether a daybook daemon listens on %s", c, err, path)
	}
}

// Ctrl-C while a daemon that took the connection has not answered stops the
// wait at once, rather than after AnswerTimeout.
func TestDialDaemonInterrupted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			accepted <- c // held open, never answered
		}
	}()
	defer func(d time.Duration) { AnswerTimeout = d }(AnswerTimeout)
	AnswerTimeout = time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	release := make(chan struct{})
	defer close(release)
	go func() {
		c := <-accepted
		cancel() // the user presses Ctrl-C while the dial waits
		<-release
		c.Close()
	}()
	done := make(chan error, 1)
	go func() {
		_, _, err := DialDaemon(ctx, dialEnv(t, path))
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), path) {
			t.Fatalf("DialDaemon = %v; want context.Canceled naming %s", err, path)
		}
	case <-time.After(time.Minute): // a guard against a hang, far beyond any stall
		t.Fatal("DialDaemon still waits after the context was cancelled")
	}
}
