package api_test

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/config"
)

// testNow is the clock of the test Apps: Tuesday 2026-03-10, 13:00 in Berlin.
var testNow = time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)

// newApp returns an App on a fresh data dir with the clock at testNow.
func newApp(t testing.TB) *app.App {
	t.Helper()
	cfg := config.Default()
	cfg.Timezone = "Europe/Berlin"
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	a := app.NewWith(t.TempDir(), cfg, nil, app.Options{Now: func() time.Time { return testNow }})
	t.Cleanup(func() { a.Close() })
	return a
}

// fixture is an API server over a real App on a real Unix socket.
type fixture struct {
	app    *app.App
	socket string
	client *api.Client
	http   *http.Client // for requests the Client would never send
}

// serve starts the API over a on a socket in a short temp folder (socket
// paths are limited to about 108 bytes) and stops it when the test ends.
func serve(t testing.TB, a *app.App) *fixture {
	t.Helper()
	dir, err := os.MkdirTemp("", "db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	socket := filepath.Join(dir, "api.sock")
	ln, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv := &http.Server{Handler: api.NewServer(a, api.ServerOptions{Log: log, DataDir: a.Dir()}),
		ReadHeaderTimeout: 5 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	f := &fixture{app: a, socket: socket, client: api.NewClient(socket), http: &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", socket)
		},
	}}}
	t.Cleanup(func() {
		f.client.Close()
		f.http.CloseIdleConnections()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("shutting down: %v", err)
		}
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("Serve: %v", err)
		}
	})
	return f
}

// testWriter sends the server's log lines to the test log.
type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(string(p))
	return len(p), nil
}
