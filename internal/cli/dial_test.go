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

	"github.com/daybook/daybook"
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

// Direct (the front): a daemon that took the request and does not answer
// is an error naming the socket after AnswerTimeout, and not one that lets
// the command run again another way (it may have done the work).
func TestDirectDaemonThatDoesNotAnswer(t *testing.T) {
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
	e := dialEnv(t, path)
	e.Direct = true
	b, err := e.Backend(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := b.Remember(context.Background(), daybook.RememberRequest{Text: "x"})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), path) || Unanswered(err) {
			t.Fatalf("remember to a daemon that does not answer: %v (unanswered %v); want an error naming %s", err, Unanswered(err), path)
		}
	case <-time.After(time.Minute): // a guard against a hang, far beyond AnswerTimeout
		t.Fatal("remember still waits for a daemon that does not answer")
	}
}

// Direct with no daemon on the socket: nothing ran, so the command may run
// another way.
func TestDirectNoDaemon(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	e := dialEnv(t, path)
	e.Direct = true
	b, err := e.Backend(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Remember(context.Background(), daybook.RememberRequest{Text: "x"}); !Unanswered(err) {
		t.Fatalf("remember with no daemon listening: %v; want an error that lets the command run another way", err)
	}
	if _, err := dialEnv(t, filepath.Join(t.TempDir(), "none.sock")).LocalService(); !errors.Is(err, ErrNoDaemon) || !Unanswered(err) {
		t.Fatalf("no socket, no Local: %v; want ErrNoDaemon", err)
	}
}
