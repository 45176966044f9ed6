package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/config"
)

func zoneApp(t *testing.T, dir, tz string) *App {
	t.Helper()
	cfg := config.Default()
	cfg.Timezone = tz
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	a := NewWith(dir, cfg, nil, Options{Now: func() time.Time { return time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC) }}) // inside the date window of every date below
	t.Cleanup(func() { a.Close() })
	return a
}

// TestDSTGapIsAnError: a local time inside the hour skipped when daylight
// saving time begins is refused with the gap named, not moved silently.
func TestDSTGapIsAnError(t *testing.T) {
	a := zoneApp(t, t.TempDir(), "America/New_York")
	_, err := a.Remember(context.Background(), daybook.RememberRequest{Text: "in the gap", At: "2026-03-08 02:30"})
	var ue *UserError
	if err == nil || !errors.As(err, &ue) || !strings.Contains(err.Error(), "from 02:00 to 03:00 on 2026-03-08") {
		t.Fatalf("err = %v, want a user error naming the gap 02:00 to 03:00", err)
	}
	for _, at := range []string{"2026-03-08 01:59", "2026-03-08 03:00", "2026-03-08T07:30:00Z", "2026-11-01 01:30"} {
		if _, err := a.Remember(context.Background(), daybook.RememberRequest{Text: "outside the gap", At: at}); err != nil {
			t.Errorf("--at %s: %v", at, err)
		}
	}
}

// TestLocalZoneIsPinnedPerDataDir: with timezone Local, the first write
// pins the zone it found; a process in another zone then writes in the
// pinned one, so an instant lands on the same line whichever writes it.
func TestLocalZoneIsPinnedPerDataDir(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TZ", "Asia/Tokyo")
	tokyo := zoneApp(t, dir, "Local")
	r1, err := tokyo.Remember(context.Background(), daybook.RememberRequest{Text: "from the Tokyo shell", At: "2026-11-24T03:30:00Z"})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ZoneFile)); strings.TrimSpace(string(b)) != "Asia/Tokyo" {
		t.Fatalf("%s holds %q, want Asia/Tokyo", ZoneFile, b)
	}
	t.Setenv("TZ", "UTC")
	utc := zoneApp(t, dir, "Local")
	r2, err := utc.Remember(context.Background(), daybook.RememberRequest{Text: "from the UTC daemon", At: "2026-11-24T03:31:00Z"})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, r1.Path))
	if r1.Path != r2.Path || !strings.Contains(string(data), "- 12:30 from the Tokyo shell") || !strings.Contains(string(data), "- 12:31 from the UTC daemon") {
		t.Errorf("paths %s and %s:\n%s", r1.Path, r2.Path, data)
	}
	if got := utc.Loc().String(); got != "Asia/Tokyo" {
		t.Errorf("Loc = %s, want the pinned Asia/Tokyo", got)
	}
}
