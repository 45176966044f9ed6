// Package web serves daybook's timeline page: years as rows, months as
// cells shaded by how many entries they hold, and a page for each year,
// month and day with its summary, its decisions and its entries, a search
// box that runs recall, and a tag filter. The HTML is rendered on the
// server from templates embedded in the binary, with a little JavaScript
// and no external resources, so it works offline.
//
// The page is opt-in (web.listen in the config), listens on a loopback
// address unless web.allow_remote says otherwise, and answers only requests
// that carry the data dir's token (state/web.token): in the URL once, then
// in an HttpOnly, SameSite=Strict cookie.
package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/util/httpserve"
	"github.com/daybook/daybook/internal/util/logkey"
)

// Backend is what the page reads; *app.App is one.
type Backend interface {
	Days(ctx context.Context, req daybook.DaysRequest) (daybook.DaysResponse, error)
	Day(ctx context.Context, req daybook.DayRequest) (daybook.DayResponse, error)
	Recall(ctx context.Context, req daybook.RecallRequest) (daybook.RecallResponse, error)
	Browse(ctx context.Context, req daybook.BrowseRequest) (daybook.BrowseResponse, error)
}

// Options configures a Server.
type Options struct {
	Listen      string // HOST:PORT, as web.listen
	AllowRemote bool   // as web.allow_remote: take a Listen other machines reach
	// Dir is the data dir: its day files give the activity counts, its
	// summaries the decisions, and Dir/state/web.token the token.
	Dir string
	// Token, if set, is used instead of the token file (tests).
	Token string
	Log   *slog.Logger
	Now   func() time.Time // the clock; time.Now by default
	Loc   *time.Location   // the time zone of "today"; time.Local by default
}

// Server serves the page on a TCP address. Build it with New, run Serve,
// stop it with Close.
type Server struct {
	ln  net.Listener
	srv *http.Server
	log *slog.Logger

	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// New checks opts, reads or creates the token, and listens on opts.Listen.
// A Listen that other machines can reach is refused, naming it, unless
// AllowRemote is set.
func New(b Backend, opts Options) (*Server, error) {
	if opts.Listen == "" {
		return nil, errors.New("web.listen is empty: the page is off")
	}
	h, p, err := newHandler(b, opts)
	if err != nil {
		return nil, err
	}
	log := logger(opts.Log)
	ln, err := net.Listen("tcp", opts.Listen)
	if err != nil {
		return nil, fmt.Errorf("listening on web.listen %s: %w", opts.Listen, err)
	}
	srv := httpserve.New(h, log)
	s := &Server{ln: ln, srv: srv, log: log}
	// Count the day files now, so that the first page does not wait for
	// all of them.
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.wg.Go(func() {
		if _, err := p.act.snapshot(ctx); err != nil && ctx.Err() == nil {
			log.Warn("counting day files", "err", err)
		}
	})
	return s, nil
}

// Addr returns the address the server listens on (the port chosen, when
// Listen's port was 0).
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Serve answers requests until Close; it returns nil after Close.
func (s *Server) Serve() error {
	s.log.Info("serving", "addr", s.ln.Addr().String())
	return httpserve.Serve(s.srv, s.ln, "web page on "+s.ln.Addr().String())
}

// Close stops accepting, waits for the requests under way until ctx ends,
// then drops the connections left.
func (s *Server) Close(ctx context.Context) error {
	s.cancel()
	err := httpserve.Shutdown(ctx, s.srv, s.ln, "web page on "+s.ln.Addr().String())
	s.wg.Wait()
	return err
}

func newHandler(b Backend, opts Options) (http.Handler, *pages, error) {
	if b == nil {
		return nil, nil, errors.New("web: no backend")
	}
	if opts.Dir == "" {
		return nil, nil, errors.New("web: no data dir")
	}
	if opts.Listen != "" {
		if err := (config.Web{Listen: opts.Listen, AllowRemote: opts.AllowRemote}).Validate(); err != nil {
			return nil, nil, err
		}
	}
	tok := opts.Token
	if tok == "" {
		var replaced bool
		var err error
		if tok, replaced, err = EnsureToken(opts.Dir); err != nil {
			return nil, nil, err
		}
		if replaced {
			logger(opts.Log).Warn("the web page's token file could be read by others; it holds a new token now, and the old links stop working", "file", TokenPath(opts.Dir))
		}
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Loc == nil {
		opts.Loc = time.Local
	}
	p, err := newPages(b, opts, logger(opts.Log))
	if err != nil {
		return nil, nil, err
	}
	var h http.Handler = auth{token: []byte(tok), next: p.routes()}
	if !opts.AllowRemote {
		h = loopbackHost{h}
	}
	return secure{h}, p, nil
}

func logger(l *slog.Logger) *slog.Logger {
	if l == nil {
		l = slog.New(slog.DiscardHandler)
	}
	return l.With(logkey.System, "web")
}

// loopbackHost refuses requests whose Host is not this machine, so a page
// on another site cannot reach the server through a name it rebinds to
// 127.0.0.1.
type loopbackHost struct{ next http.Handler }

func (l loopbackHost) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if !config.IsLoopbackHost(host) {
		http.Error(w, fmt.Sprintf("403 forbidden: host %q is not this machine", r.Host), http.StatusForbidden)
		return
	}
	l.next.ServeHTTP(w, r)
}

// secure sets the headers every answer carries: nothing from elsewhere,
// no framing, no referrer, nothing cached.
type secure struct{ next http.Handler }

func (s secure) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "405 method not allowed: the page only reads", http.StatusMethodNotAllowed)
		return
	}
	s.next.ServeHTTP(w, r)
}
