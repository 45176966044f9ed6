package api

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/adapters/api/apiclient"
	"github.com/daybook/daybook/internal/util/logkey"
)

// Limits of the HTTP API.
const (
	MaxBody = 1 << 20 // bytes of a request body; import streams and is limited per line instead
)

// ServerOptions configures a Server.
type ServerOptions struct {
	// IsUserError tells the caller's mistakes (answered 400) from daybook's
	// failures (answered 500): app.IsUserError. Nil answers every error 500.
	IsUserError func(error) bool
	Log         *slog.Logger
	Now         func() time.Time // the clock for uptime; time.Now if nil
	PID         int              // reported by status; os.Getpid() if 0
	// DataDir is the data dir the Service works on: a request whose
	// DirHeader names another is refused (CodeOtherDir). "" checks nothing.
	DataDir string
	// StartedBy and Stop are reported by status as they are
	// (daybook.DaemonStatus).
	StartedBy, Stop string
}

// DirHeader names the data dir a request is for (Client.ForDir), and in
// an answer the data dir of the daemon that answered.
const DirHeader = apiclient.DirHeader

// Server is the HTTP/JSON API over a Service: versioned endpoints under
// /v1/, JSON errors, and the limits above. It is an http.Handler; the
// daemon serves it on its Unix socket.
type Server struct {
	routes  map[string]map[string]http.Handler // path → method → handler
	opts    ServerOptions
	log     *slog.Logger
	started time.Time
}

// NewServer returns the API over b.
func NewServer(b daybook.Service, opts ServerOptions) *Server {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.IsUserError == nil {
		opts.IsUserError = func(error) bool { return false }
	}
	if opts.PID == 0 {
		opts.PID = os.Getpid()
	}
	s := &Server{routes: map[string]map[string]http.Handler{}, opts: opts,
		log: opts.Log.With(logkey.System, "api"), started: opts.Now()}

	s.Handle(http.MethodPost, apiclient.RouteRemember, jsonHandler(s, b.Remember))
	s.Handle(http.MethodPost, apiclient.RouteImport, longRunning(s.importHandler(b)))
	s.Handle(http.MethodPost, apiclient.RouteDay, jsonHandler(s, b.Day))
	s.Handle(http.MethodPost, apiclient.RouteDays, jsonHandler(s, b.Days))
	s.Handle(http.MethodPost, apiclient.RouteFind, jsonHandler(s, b.Find))
	s.Handle(http.MethodPost, apiclient.RouteRecall, jsonHandler(s, b.Recall))
	s.Handle(http.MethodPost, apiclient.RouteExpand, jsonHandler(s, b.Expand))
	// Browse reads every summary it lists and plans a dry consolidation for
	// the stale flags, so it runs without the write deadline.
	s.Handle(http.MethodPost, apiclient.RouteBrowse, longRunning(jsonHandler(s, b.Browse)))
	status := jsonHandler(s, s.daemonStatus(b.Status))
	s.Handle(http.MethodPost, apiclient.RouteStatus, status)
	s.Handle(http.MethodGet, apiclient.RouteStatus, status)
	s.Handle(http.MethodPost, apiclient.RouteConsolidate, longRunning(jsonHandler(s, b.Consolidate)))
	s.Handle(http.MethodPost, apiclient.RouteReindex, longRunning(jsonHandler(s, b.Reindex)))
	s.Handle(http.MethodPost, apiclient.RouteContext, jsonHandler(s, b.Context))
	s.Handle(http.MethodPost, apiclient.RouteTopics, jsonHandler(s, b.Topics))
	s.Handle(http.MethodPost, apiclient.RouteTopic, jsonHandler(s, b.Topic))
	stats := jsonHandler(s, b.Stats)
	s.Handle(http.MethodPost, apiclient.RouteStats, stats)
	s.Handle(http.MethodGet, apiclient.RouteStats, stats)
	return s
}

// Handle serves h for method on path. Handlers that may run longer than the
// write timeout (a consolidation, a reindex) are wrapped in longRunning.
func (s *Server) Handle(method, path string, h http.Handler) {
	if s.routes[path] == nil {
		s.routes[path] = map[string]http.Handler{}
	}
	s.routes[path][method] = h
}

// ServeHTTP routes a request: an unknown path is 404 and a known path with
// another method 405, both as JSON errors like every other.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := s.opts.Now()
	if s.opts.DataDir != "" {
		w.Header().Set(DirHeader, s.opts.DataDir) // which memory answered
	}
	rw := &statusWriter{ResponseWriter: w}
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("handler panicked", "method", r.Method, "path", r.URL.Path, "panic", p, "stack", string(debug.Stack()))
			if rw.status == 0 {
				writeError(rw, &daybook.Error{Code: daybook.CodeInternal, Message: fmt.Sprintf("internal error serving %s", r.URL.Path)}, nil)
			}
		}
		s.log.Debug("request", "method", r.Method, "path", r.URL.Path, "status", rw.status,
			"duration", s.opts.Now().Sub(start))
	}()
	methods, ok := s.routes[r.URL.Path]
	if !ok {
		writeError(rw, &daybook.Error{Code: daybook.CodeNoEndpoint, Message: fmt.Sprintf("no endpoint %s (the endpoints are %s)", r.URL.Path, strings.Join(s.paths(), ", "))}, nil)
		return
	}
	h, ok := methods[r.Method]
	if !ok {
		allowed := slices.Sorted(maps.Keys(methods))
		rw.Header().Set("Allow", strings.Join(allowed, ", "))
		writeError(rw, &daybook.Error{Code: daybook.CodeBadMethod, Message: fmt.Sprintf("%s does not take %s; use %s", r.URL.Path, r.Method, strings.Join(allowed, " or "))}, nil)
		return
	}
	if dir := r.Header.Get(DirHeader); dir != "" && s.opts.DataDir != "" && !SameDir(dir, s.opts.DataDir) {
		writeError(rw, &daybook.Error{Code: daybook.CodeOtherDir, Field: DirHeader,
			Message: fmt.Sprintf("this daemon serves %s, not %s", s.opts.DataDir, dir)}, nil)
		return
	}
	h.ServeHTTP(rw, r)
}

// SameDir reports whether a and b name the same folder, through symbolic
// links too.
func SameDir(a, b string) bool { return apiclient.SameDir(a, b) }

func (s *Server) paths() []string { return slices.Sorted(maps.Keys(s.routes)) }

// daemonStatus adds to the backend's status that a daemon answers, its pid
// and its uptime.
func (s *Server) daemonStatus(fn func(context.Context, daybook.StatusRequest) (daybook.StatusResponse, error)) func(context.Context, daybook.StatusRequest) (daybook.StatusResponse, error) {
	return func(ctx context.Context, req daybook.StatusRequest) (daybook.StatusResponse, error) {
		resp, err := fn(ctx, req)
		resp.Daemon = daybook.DaemonStatus{Running: true, PID: s.opts.PID, Started: s.started,
			Uptime: s.opts.Now().Sub(s.started).Round(time.Second).String(), StartedBy: s.opts.StartedBy, Stop: s.opts.Stop}
		return resp, err
	}
}

// importHandler streams the request body, JSON lines, into Import. The body
// has no overall size limit; Import limits each line. ?strict=true rejects
// the whole input if any line is bad; ?any_date=true takes dates outside the
// configured window; ?flatten=true writes a line whose markdown would end
// its entry early as one paragraph.
func (s *Server) importHandler(b daybook.Service) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var opt daybook.ImportOptions
		for _, f := range []struct {
			name string
			v    *bool
		}{{"strict", &opt.Strict}, {"any_date", &opt.AnyDate}, {"flatten", &opt.Flatten}} {
			if v := r.URL.Query().Get(f.name); v != "" {
				var err error
				if *f.v, err = strconv.ParseBool(v); err != nil {
					writeError(w, usage(f.name, fmt.Sprintf("%s=%q is not true or false", f.name, v)), nil)
					return
				}
			}
		}
		resp, err := b.Import(r.Context(), r.Body, opt)
		s.respond(w, r, resp, err)
	})
}

// longRunning lifts the server's read and write deadlines for h: an import
// of years of entries or a full consolidation takes longer than a request.
func longRunning(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		// Errors mean the writer has no deadlines to lift (httptest).
		_ = rc.SetReadDeadline(time.Time{})
		_ = rc.SetWriteDeadline(time.Time{})
		h.ServeHTTP(w, r)
	})
}

// statusWriter remembers the status written, for the log and for panics.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the connection's deadlines.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
