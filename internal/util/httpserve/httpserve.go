// Package httpserve builds the HTTP servers daybook listens with (the socket
// API, the web page, the chat proxy) with the same hardening: bounded
// header reads and sizes, read, write and idle timeouts, and the server's own
// errors in the component's log rather than on stderr.
package httpserve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// The limits every server gets. Long operations (import, consolidate,
// reindex, a streamed answer) lift their read and write deadlines themselves
// with an http.ResponseController.
const (
	ReadHeaderTimeout = 5 * time.Second
	ReadTimeout       = 30 * time.Second
	WriteTimeout      = 2 * time.Minute
	IdleTimeout       = 2 * time.Minute
	MaxHeaderBytes    = 16 << 10
)

// New returns a server for h with the limits above; its errors go to log at
// warning level (log may be nil).
func New(h http.Handler, log *slog.Logger) *http.Server {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// Serve answers requests of srv on ln until Shutdown, and returns nil
// then; name says what is served in the error ("socket PATH", "the proxy
// on ADDR").
func Serve(srv *http.Server, ln net.Listener, name string) error {
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serving %s: %w", name, err)
	}
	return nil
}

// Shutdown stops srv: it stops accepting, waits for the requests under way
// until ctx ends, then drops the connections left, and closes ln (which
// Shutdown closes only once Serve ran).
func Shutdown(ctx context.Context, srv *http.Server, ln net.Listener, name string) error {
	err := srv.Shutdown(ctx)
	if err != nil {
		srv.Close()
		err = fmt.Errorf("closing %s: %w", name, err)
	}
	if cerr := ln.Close(); cerr != nil && !errors.Is(cerr, net.ErrClosed) && err == nil {
		err = fmt.Errorf("closing %s: %w", name, cerr)
	}
	return err
}
