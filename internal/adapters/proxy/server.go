package proxy

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"

	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/util/httpserve"
)

// Server serves a Proxy on a loopback TCP address, for the daemon, with
// httpserve's limits (the proxy lifts the read and write deadlines of each
// request it answers: an answer streams for as long as the model writes, a
// pull for as long as it downloads): Serve until Close, which cancels the
// requests under way (their upstream requests with them) and waits for them.
type Server struct {
	p      *Proxy
	ln     net.Listener
	srv    *http.Server
	log    *slog.Logger
	cancel context.CancelFunc
}

// Listen checks that addr is a loopback HOST:PORT, as proxy.listen must be,
// and listens on it.
func Listen(addr string, p *Proxy, log *slog.Logger) (*Server, error) {
	if addr == "" {
		return nil, errors.New("proxy.listen is empty: the proxy is off")
	}
	if err := config.CheckProxyListen(addr); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("proxy.listen: listening on %s: %w", addr, err)
	}
	if ta, ok := ln.Addr().(*net.TCPAddr); !ok || !ta.IP.IsLoopback() {
		ln.Close()
		return nil, fmt.Errorf("proxy.listen: %q resolved to %s, which is not a loopback address", addr, ln.Addr())
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv := httpserve.New(p, log.With("system", "proxy"))
	srv.BaseContext = func(net.Listener) context.Context { return ctx }
	return &Server{p: p, ln: ln, srv: srv, log: log.With("system", "proxy"), cancel: cancel}, nil
}

// Addr returns the address the proxy listens on.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Serve answers requests until Close; it returns nil after Close.
func (s *Server) Serve() error {
	s.log.Info("serving", "addr", s.ln.Addr().String(), "upstream", s.p.Upstream())
	return httpserve.Serve(s.srv, s.ln, "the proxy on "+s.ln.Addr().String())
}

// Close cancels the requests under way and waits for them until ctx ends,
// then drops the connections left.
func (s *Server) Close(ctx context.Context) error {
	s.cancel()
	return httpserve.Shutdown(ctx, s.srv, s.ln, "the proxy on "+s.ln.Addr().String())
}
