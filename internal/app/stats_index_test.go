package app_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/app"
)

// TestStatsIndexFootprint wants stats to report the index's bytes on disk,
// the day files' bytes and their ratio, and the resident memory only when
// a daemon (which catches up in the background) answers.
func TestStatsIndexFootprint(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := newApp(t, dir)
	for _, text := range []string{"Chose Argon2id for password hashing", "Lunch with Maria at the harbour"} {
		if _, err := a.Remember(ctx, daybook.RememberRequest{Text: text, At: "2026-01-05 09:00"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := a.Index(ctx); err != nil {
		t.Fatal(err)
	}
	resp, err := a.Stats(ctx, daybook.StatsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, "days", "2026", "01", "05.md"))
	if err != nil {
		t.Fatal(err)
	}
	if resp.DayFileBytes != fi.Size() {
		t.Errorf("day_file_bytes %d, the day file has %d", resp.DayFileBytes, fi.Size())
	}
	var want int64
	filepath.Walk(filepath.Join(dir, app.IndexDir), func(_ string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			want += fi.Size()
		}
		return nil
	})
	if resp.IndexBytes == 0 || resp.IndexBytes != want {
		t.Errorf("index_bytes %d, the index folder holds %d", resp.IndexBytes, want)
	}
	if r := float64(resp.IndexBytes) / float64(resp.DayFileBytes); resp.IndexRatio != r {
		t.Errorf("index_ratio %v, want %v", resp.IndexRatio, r)
	}
	if resp.DaemonRSS != 0 {
		t.Errorf("daemon_rss_bytes %d without a daemon", resp.DaemonRSS)
	}
	a.Close()
	d := app.NewWith(dir, a.Config(), nil, app.Options{BackgroundCatchUp: true}) // as the daemon's
	defer d.Close()
	resp, err = d.Stats(ctx, daybook.StatsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS == "linux" && resp.DaemonRSS < 1<<20 {
		t.Errorf("daemon_rss_bytes %d in a daemon", resp.DaemonRSS)
	}
}
