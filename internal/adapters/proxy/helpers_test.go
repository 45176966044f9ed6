package proxy_test

import (
	"bytes"
	"context"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/adapters/proxy"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/models/ollama/ollamatest"
	"github.com/daybook/daybook/internal/spool"
)

// rig is a proxy in front of a fake Ollama, over a real App in a temp dir,
// served on a real loopback port.
type rig struct {
	t        *testing.T
	dir      string
	app      *app.App
	up       *ollamatest.Server
	proxy    *proxy.Proxy
	srv      *httptest.Server
	inFlight atomic.Int64
	log      bytes.Buffer
	logw     *syncWriter
}

func newRig(t *testing.T, opts proxy.Options) *rig {
	t.Helper()
	r := &rig{t: t, dir: t.TempDir()}
	cfg := config.Default()
	cfg.Timezone = "UTC"
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	r.app = app.New(r.dir, cfg, nil)
	t.Cleanup(func() { r.app.Close() })
	r.up = ollamatest.New(t, "llama3.2", "qwen3")
	opts.Upstream = r.up.URL
	if opts.Budget == 0 {
		opts.Budget = cfg.Proxy.Budget
	}
	if opts.StateDir == "" {
		opts.StateDir = filepath.Join(r.dir, "state", "proxy")
	}
	if opts.Spool == nil {
		opts.Spool = spool.New(r.dir)
	}
	r.logw = &syncWriter{b: &r.log}
	opts.Log = slog.New(slog.NewTextHandler(r.logw, &slog.HandlerOptions{Level: slog.LevelDebug}))
	opts.IsUserError = app.IsUserError
	p, err := proxy.New(r.app, opts)
	if err != nil {
		t.Fatal(err)
	}
	r.proxy = p
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.inFlight.Add(1)
		defer r.inFlight.Add(-1)
		p.ServeHTTP(w, req)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

// logText returns what the proxy logged.
func (r *rig) logText() string {
	r.logw.mu.Lock()
	defer r.logw.mu.Unlock()
	return r.log.String()
}

// client is the official Ollama Go client pointed at the proxy.
func (r *rig) client() *api.Client {
	u := mustURL(r.t, r.srv.URL)
	return api.NewClient(u, http.DefaultClient)
}

// remember writes an entry through the App, as a person would have.
func (r *rig) remember(text, at string) {
	r.t.Helper()
	if _, err := r.app.Remember(context.Background(), daybook.RememberRequest{Text: text, At: at}); err != nil {
		r.t.Fatal(err)
	}
}

// entries returns the entries of kind chat in every day file, in order.
func (r *rig) chatEntries() []dayfiles.Entry {
	r.t.Helper()
	return chatEntriesIn(r.t, r.dir)
}

// chatEntriesIn returns the entries of kind chat in dir's day files.
func chatEntriesIn(tb testing.TB, dir string) []dayfiles.Entry {
	tb.Helper()
	var out []dayfiles.Entry
	root := filepath.Join(dir, "days")
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		day, derr := date.Parse(strings.TrimSuffix(strings.ReplaceAll(rel, string(filepath.Separator), "-"), ".md"))
		if derr != nil {
			tb.Fatalf("%s: %v", path, derr)
		}
		data, _ := os.ReadFile(path)
		parsed, perr := dayfiles.Parse(rel, day, data)
		if perr != nil {
			tb.Fatal(perr)
		}
		for _, e := range parsed.Entries {
			if e.Kind == dayfiles.KindChat {
				out = append(out, e)
			}
		}
		return nil
	})
	return out
}

// waitIdle waits until no request is in the proxy's handler.
func (r *rig) waitIdle() {
	r.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for r.inFlight.Load() != 0 {
		if time.Now().After(deadline) {
			r.t.Fatalf("%d requests still in the proxy after 20s", r.inFlight.Load())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func texts(es []dayfiles.Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Text)
	}
	return out
}

type syncWriter struct {
	mu sync.Mutex
	b  *bytes.Buffer
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// proxyLog is a logger into the rig's log, for a Server over its proxy.
func (r *rig) proxyLog() *slog.Logger {
	return slog.New(slog.NewTextHandler(r.logw, &slog.HandlerOptions{Level: slog.LevelDebug}))
}
