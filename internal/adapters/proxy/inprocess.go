package proxy

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"sync"

	"github.com/daybook/daybook/internal/util/httpserve"
)

// InProcess serves h to the returned client over in-memory connections
// (net.Pipe): the same HTTP server, limits and streaming as on a socket,
// with no socket, so no port that another user of the machine could
// reach. The client's URLs name any host; http://localhost/ is the one
// the proxy's Host check takes. stop stops the server and waits for it.
func InProcess(ctx context.Context, h http.Handler, log *slog.Logger) (client *http.Client, stop func()) {
	l := &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
	srv := httpserve.New(h, log)
	srv.BaseContext = func(net.Listener) context.Context { return ctx }
	served := make(chan struct{})
	go func() {
		defer close(served)
		srv.Serve(l)
	}()
	tr := &http.Transport{DialContext: l.dial, ForceAttemptHTTP2: false, DisableCompression: true}
	return &http.Client{Transport: tr}, func() {
		tr.CloseIdleConnections()
		srv.Close()
		<-served
	}
}

// pipeListener hands the server the ends of the pipes its dialer makes.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func (l *pipeListener) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "in-process" }
