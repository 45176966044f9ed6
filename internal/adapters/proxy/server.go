package proxy

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/util/httpserve"
	"github.com/daybook/daybook/internal/util/logkey"
)

// Owner checks: how the Server tells its owner's connections from the rest.
const (
	// OwnerUID admits the connections whose socket the daemon's own uid
	// owns, as the kernel lists them (Linux, loopback); any other is
	// closed as soon as it is accepted, before a byte of it is read.
	OwnerUID = "uid"
	// OwnerToken admits the requests that carry the token of TokenFile.
	OwnerToken = "token"
)

// ServerOptions configure a Server.
type ServerOptions struct {
	Log *slog.Logger
	// TokenFile holds the owner's token (TokenPath of the data dir); it is
	// made at the first start.
	TokenFile string
	// Owner forces a check (OwnerToken, for tests of it on Linux); "":
	// OwnerUID where it works, else OwnerToken.
	Owner string
}

// Server serves a Proxy on a loopback TCP address, for the daemon, to its
// owner only (OwnerUID or OwnerToken), with httpserve's limits (the proxy
// lifts the write deadline of each request it answers, and the read
// deadline once the body is in): Serve until Close, which cancels the
// requests under way (their upstream requests with them) and waits for
// them.
type Server struct {
	p      *Proxy
	ln     net.Listener
	srv    *http.Server
	log    *slog.Logger
	cancel context.CancelFunc
	owner  string
	token  string
	file   string
	uidErr error // why OwnerUID is not in force
}

// Listen checks that addr is a loopback HOST:PORT, as proxy.listen must be,
// listens on it and chooses the owner check.
func Listen(addr string, p *Proxy, opts ServerOptions) (*Server, error) {
	if addr == "" {
		return nil, errors.New("proxy.listen is empty: the proxy is off")
	}
	if err := config.CheckProxyListen(addr); err != nil {
		return nil, err
	}
	if opts.TokenFile == "" {
		return nil, errors.New("proxy: no token file")
	}
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log = log.With(logkey.System, "proxy")
	tok, replaced, err := EnsureToken(opts.TokenFile)
	if err != nil {
		return nil, err
	}
	if replaced {
		log.Warn("the proxy's token file could be read by others; it holds a new token now", "file", opts.TokenFile)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("proxy.listen: listening on %s: %w", addr, err)
	}
	if ta, ok := ln.Addr().(*net.TCPAddr); !ok || !ta.IP.IsLoopback() {
		ln.Close()
		return nil, fmt.Errorf("proxy.listen: %q resolved to %s, which is not a loopback address", addr, ln.Addr())
	}
	s := &Server{p: p, log: log, token: tok, file: opts.TokenFile, owner: opts.Owner}
	if s.owner == "" {
		s.owner = OwnerUID
		if s.uidErr = uidCheckable(ln); s.uidErr != nil {
			s.owner = OwnerToken
		}
	}
	switch s.owner {
	case OwnerUID:
		s.ln = &ownerListener{Listener: ln, uid: os.Getuid(), log: log}
	case OwnerToken:
		s.ln = ln
	default:
		ln.Close()
		return nil, fmt.Errorf("proxy: owner check %q is not uid or token", s.owner)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.srv = httpserve.New(&tokenGate{token: []byte(tok), required: s.owner == OwnerToken, path: opts.TokenFile, next: p}, log)
	s.srv.BaseContext = func(net.Listener) context.Context { return ctx }
	return s, nil
}

// Addr returns the address the proxy listens on.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Owner returns the owner check in force: OwnerUID or OwnerToken.
func (s *Server) Owner() string { return s.owner }

// Serve answers requests until Close; it returns nil after Close. It logs
// which owner check is in force and where the token is.
func (s *Server) Serve() error {
	addr := s.ln.Addr().String()
	switch s.owner {
	case OwnerUID:
		s.log.Info("serving its owner only: connections of other users are closed unread", "addr", addr,
			"upstream", s.p.Upstream(), "check", "uid", "uid", os.Getuid(), "token_file", s.file,
			"token_url", "http://"+addr+TokenPrefix+"TOKEN/ also works")
	default:
		why := "forced"
		if s.uidErr != nil {
			why = s.uidErr.Error()
		}
		s.log.Info("serving its owner only: every request needs the token", "addr", addr,
			"upstream", s.p.Upstream(), "check", "token", "why", why, "token_file", s.file,
			"base_url", "http://"+addr+TokenPrefix+"TOKEN/", "header", "Authorization: Bearer TOKEN")
	}
	return httpserve.Serve(s.srv, s.ln, "the proxy on "+addr)
}

// Close cancels the requests under way and waits for them until ctx ends,
// then drops the connections left.
func (s *Server) Close(ctx context.Context) error {
	s.cancel()
	return httpserve.Shutdown(ctx, s.srv, s.ln, "the proxy on "+s.ln.Addr().String())
}

// ownerListener accepts the connections whose peer socket uid owns and
// closes every other one before it is handed to the HTTP server: nothing
// of such a request is read, forwarded or written. A connection whose
// owner cannot be found is closed too.
type ownerListener struct {
	net.Listener
	uid int
	log *slog.Logger

	mu       sync.Mutex
	lastLog  time.Time
	unlogged int
}

// refusedLogEvery spaces the log lines of refused connections, so that a
// loop of them cannot fill the log.
const refusedLogEvery = 10 * time.Second

func (l *ownerListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		uid, err := peerUID(c)
		if err == nil && uid == l.uid {
			return c, nil
		}
		c.Close()
		l.refused(c.RemoteAddr(), uid, err)
	}
}

func (l *ownerListener) refused(from net.Addr, uid int, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if now.Sub(l.lastLog) < refusedLogEvery {
		l.unlogged++
		return
	}
	args := []any{"from", from.String(), "uid", uid, "owner", l.uid, "refused_unlogged", l.unlogged}
	if err != nil {
		args = append(args, "err", err)
	}
	l.log.Warn("closed a connection of another user: the proxy serves its owner only", args...)
	l.lastLog, l.unlogged = now, 0
}
