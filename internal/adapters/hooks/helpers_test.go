package hooks_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/config"
)

// fixture returns testdata/name with $TRANSCRIPT and $PROJECT replaced.
func fixture(t testing.TB, name, transcript, project string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(data), "$TRANSCRIPT", transcript)
	return []byte(strings.ReplaceAll(s, "$PROJECT", project))
}

// session is a project folder with the fixture transcript in it, and a
// data dir.
type session struct {
	dir, project, transcript string
}

func newSession(t testing.TB) session {
	t.Helper()
	root := t.TempDir()
	s := session{dir: filepath.Join(root, "data"), project: filepath.Join(root, "billing-ops")}
	s.transcript = filepath.Join(root, "claude", "3f6a2c1e-8b9d-4e5f-a1b2-c3d4e5f60718.jsonl")
	if err := os.MkdirAll(filepath.Dir(s.transcript), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(s.project, 0o755); err != nil {
		t.Fatal(err)
	}
	s.write(t, "transcript.jsonl")
	return s
}

// write replaces the transcript with the fixtures named, one after the other.
func (s session) write(t testing.TB, names ...string) {
	t.Helper()
	var all []byte
	for _, n := range names {
		all = append(all, fixture(t, n, s.transcript, s.project)...)
	}
	if err := os.WriteFile(s.transcript, all, 0o644); err != nil {
		t.Fatal(err)
	}
}

// newApp is a real App on dir, in UTC.
func newApp(t testing.TB, dir string) *app.App {
	t.Helper()
	cfg := config.Default()
	cfg.Timezone = "UTC"
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	a := app.NewWith(dir, cfg, nil, app.Options{Now: func() time.Time { return time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC) }})
	t.Cleanup(func() { a.Close() })
	return a
}
