package topics

import (
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// TestUnreadableDayIsTriedAgain checks that a day file that could not be
// read is cached so that the next Load reads it again, while one that does
// not parse (not UTF-8) stays bad until it changes.
func TestUnreadableDayIsTriedAgain(t *testing.T) {
	dir := t.TempDir()
	d := date.MustParse("2026-03-05")
	mtime := time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC)

	bad := filepath.Join(dir, "bad.md")
	if err := os.WriteFile(bad, []byte("# 2026-03-05\n\n- 09:00 caf\xe9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := scanDay(dayfiles.File{Date: d, Path: bad, Size: 23, ModTime: mtime}, slog.New(slog.DiscardHandler))
	if !r.Bad || r.MTime != mtime.UnixNano() {
		t.Errorf("a day that does not parse: bad %v, mtime %d; want bad and its time kept", r.Bad, r.MTime)
	}

	gone := filepath.Join(dir, "gone.md") // listed, then unreadable
	r = scanDay(dayfiles.File{Date: d, Path: gone, Size: 23, ModTime: mtime}, slog.New(slog.DiscardHandler))
	if !r.Bad || r.MTime == mtime.UnixNano() {
		t.Errorf("a day that could not be read: bad %v, mtime %d; want bad and a time no file has", r.Bad, r.MTime)
	}
}
