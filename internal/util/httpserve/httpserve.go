// Package httpserve builds the HTTP servers daybook listens with (the socket
// API, the web page, the chat proxy) with the same hardening: bounded
// header reads and sizes, read, write and idle timeouts, and the server's own
// errors in the component's log rather than on stderr.
package httpserve

import (
	"log/slog"
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
