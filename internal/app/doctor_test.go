package app

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/adapters/ollama/ollamatest"
	"github.com/daybook/daybook/internal/config"
)

func doctorApp(t *testing.T, ollamaURL string) *App {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	if ollamaURL != "" {
		cfg.Ollama.Enabled, cfg.Ollama.URL = true, ollamaURL
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	return New(dir, cfg, nil)
}

func find(t *testing.T, r api.DoctorResponse, name string) api.Check {
	t.Helper()
	for _, c := range r.Checks {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no %q check in %+v", name, r.Checks)
	return api.Check{}
}

func expect(t *testing.T, c api.Check, status, detail string) {
	t.Helper()
	if c.Status != status || !strings.Contains(c.Detail, detail) {
		t.Errorf("%s: %s %q; want %s containing %q", c.Name, c.Status, c.Detail, status, detail)
	}
	if (c.Status == api.CheckOK) != (c.Fix == "") {
		t.Errorf("%s: status %s with fix %q", c.Name, c.Status, c.Fix)
	}
}

// shortSocket returns a socket path short enough for sun_path.
func shortSocket(t *testing.T) string {
	dir, err := os.MkdirTemp("", "dbk")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return filepath.Join(dir, "s.sock")
}

func TestDoctorHealthy(t *testing.T) {
	srv := ollamatest.New(t, "llama3.2", "nomic-embed-text")
	srv.SetDim(768)
	a := doctorApp(t, srv.URL)
	os.MkdirAll(filepath.Join(a.Dir, "days", "2026", "11"), 0o700)
	os.WriteFile(filepath.Join(a.Dir, "days", "2026", "11", "22.md"), []byte("# 2026-11-22\n"), 0o600)
	os.MkdirAll(filepath.Join(a.Dir, IndexDir), 0o700)
	os.WriteFile(filepath.Join(a.Dir, IndexDir, "meta.json"), []byte(`{}`), 0o600)

	sock := shortSocket(t)
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(sock, 0o600)
	serve(t, l, api.NewServer(a, api.ServerOptions{}))

	cfgPath := filepath.Join(t.TempDir(), "config.yaml")
	os.WriteFile(cfgPath, []byte("ollama:\n  enabled: true\n"), 0o600)
	r := a.Doctor(context.Background(), DoctorInput{ConfigPath: cfgPath, Socket: sock})
	if r.Failed != 0 || r.Warned != 0 {
		t.Errorf("failed %d warned %d: %+v", r.Failed, r.Warned, r.Checks)
	}
	expect(t, find(t, r, "data dir"), api.CheckOK, "(0700), 1 day files")
	expect(t, find(t, r, "config"), api.CheckOK, "config.yaml is valid")
	expect(t, find(t, r, "index"), api.CheckOK, "1 files")
	expect(t, find(t, r, "socket"), api.CheckOK, "daemon answers")
	expect(t, find(t, r, "ollama"), api.CheckOK, "answers, 2 models pulled")
	expect(t, find(t, r, "models"), api.CheckOK, "llama3.2 and nomic-embed-text are pulled")
	expect(t, find(t, r, "embedding"), api.CheckOK, "768 dimensions")
}

func TestDoctorProblems(t *testing.T) {
	srv := ollamatest.New(t, "llama3.2")
	a := doctorApp(t, srv.URL)
	os.Chmod(a.Dir, 0o755)

	sock := shortSocket(t)
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	l.SetUnlinkOnClose(false)
	l.Close() // a daemon that died: the socket file stays, nobody listens

	r := a.Doctor(context.Background(), DoctorInput{ConfigErr: errors.New("config.yaml: yaml: unmarshal errors:\n  line 2: field enabld not found"), Socket: sock})
	expect(t, find(t, r, "data dir"), api.CheckWarn, "open to other users (0755)")
	expect(t, find(t, r, "config"), api.CheckFail, "unmarshal errors: line 2: field enabld not found")
	expect(t, find(t, r, "index"), api.CheckWarn, "not built yet")
	expect(t, find(t, r, "socket"), api.CheckWarn, "stale")
	expect(t, find(t, r, "models"), api.CheckFail, "not pulled: nomic-embed-text")
	if c := find(t, r, "models"); c.Fix != "ollama pull nomic-embed-text" {
		t.Errorf("models fix = %q", c.Fix)
	}
	if r.Failed != 2 || r.Warned != 3 {
		t.Errorf("failed %d warned %d", r.Failed, r.Warned)
	}
}

func TestDoctorOllamaDownAndOff(t *testing.T) {
	a := doctorApp(t, ollamatest.DeadURL(t))
	start := time.Now()
	r := a.Doctor(context.Background(), DoctorInput{})
	expect(t, find(t, r, "ollama"), api.CheckFail, "does not answer")
	if time.Since(start) > 10*time.Second {
		t.Errorf("doctor took %v with Ollama down", time.Since(start))
	}

	a = doctorApp(t, "")
	notSock := filepath.Join(a.Dir, "daybook.sock")
	os.WriteFile(notSock, nil, 0o600)
	r = a.Doctor(context.Background(), DoctorInput{Socket: notSock})
	expect(t, find(t, r, "ollama"), api.CheckOK, "off")
	expect(t, find(t, r, "socket"), api.CheckFail, "is not a socket")
	expect(t, find(t, r, "data dir"), api.CheckOK, "0 day files")
}

func serve(t *testing.T, l net.Listener, h http.Handler) {
	hs := &http.Server{Handler: h}
	go hs.Serve(l)
	t.Cleanup(func() { hs.Close() })
}

// TestDoctorOtherSockets: a daemon of another data dir, and something that
// is not daybook, on the socket.
func TestDoctorOtherSockets(t *testing.T) {
	a := doctorApp(t, "")
	other := doctorApp(t, "")
	for _, tc := range []struct {
		h    http.Handler
		want string
	}{
		{api.NewServer(other, api.ServerOptions{}), "serves " + other.Dir + ", not this data dir"},
		{http.NotFoundHandler(), "answers 404 Not Found, not a daybook status"},
	} {
		sock := shortSocket(t)
		l, err := net.Listen("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		serve(t, l, tc.h)
		r := a.Doctor(context.Background(), DoctorInput{Socket: sock})
		expect(t, find(t, r, "socket"), api.CheckWarn, tc.want)
	}
}
