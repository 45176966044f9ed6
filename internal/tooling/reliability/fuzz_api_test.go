package reliability

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/config"
)

// panicLog records log lines at error level, where the server reports a
// handler that panicked.
type panicLog struct {
	mu    sync.Mutex
	lines []string
}

func (p *panicLog) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelError }
func (p *panicLog) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Message)
	r.Attrs(func(a slog.Attr) bool { b.WriteString(" " + a.String()); return true })
	p.mu.Lock()
	p.lines = append(p.lines, b.String())
	p.mu.Unlock()
	return nil
}
func (p *panicLog) WithAttrs([]slog.Attr) slog.Handler { return p }
func (p *panicLog) WithGroup(string) slog.Handler      { return p }

func (p *panicLog) take() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.lines
	p.lines = nil
	return l
}

// apiSeeds are well-formed requests to every endpoint, for the fuzzer to
// start from.
var apiSeeds = []struct{ method, path, body string }{
	{"POST", "/v1/remember", `{"text":"fuzzed entry #tag","kind":"fact"}`},
	{"POST", "/v1/remember", `{"text":"at a time","at":"2025-01-02 10:00"}`},
	{"POST", "/v1/import", `{"at":"2025-01-03T10:00:00","text":"imported"}` + "\n"},
	{"POST", "/v1/day", `{"date":"2025-01-10"}`},
	{"POST", "/v1/days", `{"from":"2025-01-01","to":"2025-12-31"}`},
	{"POST", "/v1/find", `{"pattern":"deploy","regex":false}`},
	{"POST", "/v1/find", `{"pattern":"(a+)+$","regex":true}`},
	{"POST", "/v1/recall", `{"query":"what did we decide last March","limit":3}`},
	{"POST", "/v1/expand", `{"id":"day:2025-01-10"}`},
	{"POST", "/v1/browse", `{"level":"month"}`},
	{"POST", "/v1/context", `{"budget":500}`},
	{"POST", "/v1/topics", `{}`},
	{"POST", "/v1/topic", `{"name":"deploy"}`},
	{"POST", "/v1/stats", `{}`},
	{"GET", "/v1/status", ``},
	{"POST", "/v1/consolidate", `{"from":"2025-01-10","to":"2025-01-11"}`},
	{"DELETE", "/v1/remember", `{}`},
	{"POST", "/../../etc/passwd", `{}`},
	{"POST", "/v1/remember", `{"text":"` + strings.Repeat("a", 70000) + `"}`},
	{"POST", "/v1/day", `{"date":"9999-99-99"}`},
	{"POST", "/v1/remember", `[1,2,3]`},
}

// FuzzSocketAPI sends random methods, paths and bodies to the socket API's
// handler over a real App on a real data dir. No request may panic a
// handler or get a 500 (hostile input is the caller's mistake: 4xx), every
// answer is JSON, and every day file still parses afterwards.
func FuzzSocketAPI(f *testing.F) {
	for _, s := range apiSeeds {
		f.Add(s.method, s.path, []byte(s.body))
	}
	dir := f.TempDir()
	corpus(f, dir, date.MustParse("2025-01-10"), 5, 4, "fz")
	cfg := config.Default()
	cfg.Timezone = "UTC"
	if err := cfg.Validate(); err != nil {
		f.Fatal(err)
	}
	plog := &panicLog{}
	a := app.New(dir, cfg, slog.New(plog))
	f.Cleanup(func() { a.Close() })
	srv := api.NewServer(a, api.ServerOptions{IsUserError: app.IsUserError, Log: slog.New(plog)})
	f.Fuzz(func(t *testing.T, method, path string, body []byte) {
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		// Paths and methods a client library refuses never reach a handler.
		if strings.ContainsAny(path, " \t\r\n?#%\x00") || len(method) == 0 || len(method) > 16 || strings.ContainsAny(method, " \t\r\n\x00:/()<>@,;\"[]{}\\=?") {
			return
		}
		// Long operations are not what this target explores.
		if path == "/v1/reindex" || path == "/v1/consolidate" {
			return
		}
		req := httptest.NewRequest(http.MethodGet, "/", bytes.NewReader(body))
		req.Method, req.URL.Path, req.RequestURI = method, path, path
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if l := plog.take(); len(l) > 0 {
			t.Fatalf("%s %s %q: the server logged errors: %v", method, path, body, l)
		}
		if rec.Code >= 500 {
			t.Fatalf("%s %s %q: %d %s", method, path, body, rec.Code, rec.Body.String())
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%s %s %q: the answer is not JSON: %q", method, path, body, rec.Body.String())
		}
		if rec.Code == http.StatusOK && path == "/v1/remember" {
			dayEntries(t, dir)
		}
	})
}
