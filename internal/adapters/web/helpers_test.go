package web

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/tooling/gen"
)

// testNow is the clock of every test App: early January 2026, so that all
// of 2025 is closed and consolidated.
var testNow = time.Date(2026, 1, 10, 12, 0, 0, 0, time.UTC)

// corpus is one generated year, consolidated, shared by the tests that
// only read it.
var corpus struct {
	once sync.Once
	dir  string
	err  error
}

// corpusDir returns the data dir of a generated year (2025) whose
// summaries are written through the App.
func corpusDir(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("generates, consolidates and indexes a year of days; the full suite runs it")
	}
	corpus.once.Do(func() {
		dir, err := os.MkdirTemp("", "daybook-web-corpus-")
		if err != nil {
			corpus.err = err
			return
		}
		corpus.dir = dir
		if _, err := gen.Write(dir, gen.Options{Years: 1, Seed: 11, End: date.MustParse("2025-12-31")}); err != nil {
			corpus.err = fmt.Errorf("generating: %w", err)
			return
		}
		cfg := config.Default()
		cfg.Timezone = "UTC"
		if err := cfg.Validate(); err != nil {
			corpus.err = err
			return
		}
		a := app.NewWith(dir, cfg, nil, app.Options{Now: func() time.Time { return testNow }})
		defer a.Close()
		if _, err := a.Consolidate(context.Background(), daybook.ConsolidateRequest{}); err != nil {
			corpus.err = fmt.Errorf("consolidating: %w", err)
		}
	})
	if corpus.err != nil {
		t.Fatal(corpus.err)
	}
	return corpus.dir
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, dir := range []string{corpus.dir, benchCorpus.dir} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	os.Exit(code)
}

// site is a page server on a real loopback listener, with a client that
// keeps cookies.
type site struct {
	*httptest.Server
	token  string
	client *http.Client
}

// newSite serves the page for a on an httptest server and logs the client
// in with the token from the data dir.
func newSite(t testing.TB, a *app.App) *site {
	t.Helper()
	h, err := NewHandler(a, Options{Dir: a.Dir(), Now: a.Now, Loc: time.UTC,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	tok, err := ReadToken(a.Dir())
	if err != nil {
		t.Fatal(err)
	}
	jar, _ := cookiejar.New(nil)
	s := &site{Server: srv, token: tok, client: &http.Client{Jar: jar}}
	if code, _ := s.get(t, "/?token="+tok); code != http.StatusOK {
		t.Fatalf("logging in with the token: status %d", code)
	}
	return s
}

// get fetches path and returns the status and the body.
func (s *site) get(t testing.TB, path string) (int, string) {
	t.Helper()
	resp, err := s.client.Get(s.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

// mustGet fetches path and fails unless it answers 200.
func (s *site) mustGet(t testing.TB, path string) string {
	t.Helper()
	code, body := s.get(t, path)
	if code != http.StatusOK {
		t.Fatalf("GET %s: status %d\n%s", path, code, body)
	}
	return body
}

// mustContain fails naming what is missing.
func mustContain(t testing.TB, page, body string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(body, w) {
			t.Errorf("%s does not contain %q", page, w)
		}
	}
}

// NewHandler returns the page's handler with the token check in front,
// without listening, for tests with httptest (New serves the same).
func NewHandler(b Backend, opts Options) (http.Handler, error) {
	h, _, err := newHandler(b, opts)
	return h, err
}
