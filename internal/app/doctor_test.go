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

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/models/ollama/ollamatest"
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

func find(t *testing.T, r daybook.DoctorResponse, name string) daybook.Check {
	t.Helper()
	for _, c := range r.Checks {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no %q check in %+v", name, r.Checks)
	return daybook.Check{}
}

func expect(t *testing.T, c daybook.Check, status, detail string) {
	t.Helper()
	if c.Status != status || !strings.Contains(c.Detail, detail) {
		t.Errorf("%s: %s %q; want %s containing %q", c.Name, c.Status, c.Detail, status, detail)
	}
	if (c.Status == daybook.CheckOK) != (c.Fix == "") {
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
	os.MkdirAll(filepath.Join(a.Dir(), "days", "2026", "11"), 0o700)
	os.WriteFile(filepath.Join(a.Dir(), "days", "2026", "11", "22.md"), []byte("# 2026-11-22\n\n- 09:00 Planted garlic\n"), 0o600)
	if _, err := a.Index(context.Background()); err != nil {
		t.Fatal(err)
	}
	a.Indexer.close()

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
	expect(t, find(t, r, "data dir"), daybook.CheckOK, "(0700), 1 day files")
	expect(t, find(t, r, "config"), daybook.CheckOK, "config.yaml is valid")
	expect(t, find(t, r, "index"), daybook.CheckOK, "1 documents, 1 vectors (ollama/nomic-embed-text)")
	expect(t, find(t, r, "day files"), daybook.CheckOK, "1 day files read as UTF-8 text")
	expect(t, find(t, r, "old index"), daybook.CheckOK, "no broken index")
	expect(t, find(t, r, "socket"), daybook.CheckOK, "daemon answers")
	expect(t, find(t, r, "ollama"), daybook.CheckOK, "answers, 2 models pulled")
	expect(t, find(t, r, "models"), daybook.CheckOK, "llama3.2 and nomic-embed-text are pulled")
	expect(t, find(t, r, "embedding"), daybook.CheckOK, "768 dimensions")
}

func TestDoctorProblems(t *testing.T) {
	srv := ollamatest.New(t, "llama3.2")
	a := doctorApp(t, srv.URL)
	os.Chmod(a.Dir(), 0o755)

	sock := shortSocket(t)
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	l.SetUnlinkOnClose(false)
	l.Close() // a daemon that died: the socket file stays, nobody listens

	r := a.Doctor(context.Background(), DoctorInput{ConfigErr: errors.New("config.yaml: yaml: unmarshal errors:\n  line 2: field enabld not found"), Socket: sock})
	expect(t, find(t, r, "data dir"), daybook.CheckWarn, "open to other users (0755)")
	expect(t, find(t, r, "config"), daybook.CheckFail, "unmarshal errors: line 2: field enabld not found")
	expect(t, find(t, r, "index"), daybook.CheckWarn, "not built yet")
	expect(t, find(t, r, "socket"), daybook.CheckWarn, "stale")
	expect(t, find(t, r, "models"), daybook.CheckFail, "not pulled: nomic-embed-text")
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
	expect(t, find(t, r, "ollama"), daybook.CheckFail, "does not answer")
	if time.Since(start) > 10*time.Second {
		t.Errorf("doctor took %v with Ollama down", time.Since(start))
	}

	a = doctorApp(t, "")
	notSock := filepath.Join(a.Dir(), "daybook.sock")
	os.WriteFile(notSock, nil, 0o600)
	r = a.Doctor(context.Background(), DoctorInput{Socket: notSock})
	expect(t, find(t, r, "ollama"), daybook.CheckOK, "off")
	expect(t, find(t, r, "socket"), daybook.CheckFail, "is not a socket")
	expect(t, find(t, r, "data dir"), daybook.CheckOK, "0 day files")
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
		{api.NewServer(other, api.ServerOptions{}), "serves " + other.Dir() + ", not this data dir"},
		{http.NotFoundHandler(), "answers 404 Not Found, not a daybook status"},
	} {
		sock := shortSocket(t)
		l, err := net.Listen("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		serve(t, l, tc.h)
		r := a.Doctor(context.Background(), DoctorInput{Socket: sock})
		expect(t, find(t, r, "socket"), daybook.CheckWarn, tc.want)
	}
}

// What makes remember refuse a day, and an index that will not read, are
// reported by name with what to do; doctor used to say ok to each.
func TestDoctorBrokenStates(t *testing.T) {
	ctx := context.Background()
	a := doctorApp(t, "")
	defer a.Close()
	if _, err := a.Remember(ctx, daybook.RememberRequest{Text: "Chose Argon2 over bcrypt", At: "2026-01-02 09:00"}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Index(ctx); err != nil {
		t.Fatal(err)
	}
	a.Indexer.close()
	// A day saved as Latin-1, and today's file a link to a file elsewhere.
	latin := filepath.Join(a.Dir(), "days", "2026", "01", "03.md")
	os.WriteFile(latin, []byte("# 2026-01-03\n\n- 09:00 Caf\xe9 with Mara\n"), 0o600)
	today := filepath.Join(a.Dir(), "days", a.Today().String()[:4], a.Today().String()[5:7], a.Today().String()[8:]+".md")
	os.MkdirAll(filepath.Dir(today), 0o700)
	elsewhere := filepath.Join(t.TempDir(), "today.md")
	os.WriteFile(elsewhere, []byte("# "+a.Today().String()+"\n"), 0o600)
	if err := os.Symlink(elsewhere, today); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Remember(ctx, daybook.RememberRequest{Text: "refused"}); err == nil {
		t.Fatal("remember to a linked day file was not refused")
	}
	if _, err := a.Remember(ctx, daybook.RememberRequest{Text: "refused", At: "2026-01-03 10:00"}); err == nil {
		t.Fatal("remember to a day that is not UTF-8 was not refused")
	}
	// An index broken before, moved aside; the one in place corrupt now.
	old := filepath.Join(a.Dir(), "index.broken-20250101T000000")
	os.MkdirAll(old, 0o700)
	os.WriteFile(filepath.Join(old, "meta.json"), []byte("{}"), 0o600)
	vec := filepath.Join(a.Dir(), IndexDir, "vectors.bin")
	data, err := os.ReadFile(vec)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0xff
	os.WriteFile(vec, data, 0o600)

	r := a.Doctor(ctx, DoctorInput{})
	var days []daybook.Check
	for _, c := range r.Checks {
		if c.Name == "day files" {
			days = append(days, c)
		}
	}
	if len(days) != 2 {
		t.Fatalf("day files checks: %+v, want the link and the Latin-1 file", days)
	}
	rel := strings.TrimPrefix(today, a.Dir()+"/")
	expect(t, days[0], daybook.CheckFail, rel+" is a symbolic link")
	if !strings.Contains(days[0].Fix, "readlink -f "+today) {
		t.Errorf("link fix: %q", days[0].Fix)
	}
	expect(t, days[1], daybook.CheckFail, "days/2026/01/03.md: remember to 2026-01-03 is refused")
	expect(t, days[1], daybook.CheckFail, "03.md:3: not UTF-8 text")
	if !strings.Contains(days[1].Fix, "iconv -f LATIN1 -t UTF-8 "+latin) {
		t.Errorf("UTF-8 fix: %q", days[1].Fix)
	}
	expect(t, find(t, r, "index"), daybook.CheckFail, "vectors.bin")
	if c := find(t, r, "index"); !strings.Contains(c.Fix, "daybook reindex") {
		t.Errorf("index fix: %q", c.Fix)
	}
	expect(t, find(t, r, "old index"), daybook.CheckWarn, "1 broken index folders moved aside")
	if c := find(t, r, "old index"); c.Fix != "rm -rf "+old {
		t.Errorf("old index fix: %q", c.Fix)
	}
	if _, err := os.Stat(filepath.Join(a.Dir(), "index.broken-*")); err == nil {
		t.Error("doctor moved the index aside")
	}
	if aside, _ := filepath.Glob(filepath.Join(a.Dir(), "index.broken-*")); len(aside) != 1 {
		t.Errorf("doctor changed the folders moved aside: %v", aside)
	}
}
