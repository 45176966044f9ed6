package app

import (
	"context"
	"log/slog"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// TestEntryCountsFollowTheFiles checks status's per-day counts: a changed
// day is counted again, one that does not parse is -1 until it changes, a
// removed day is forgotten.
func TestEntryCountsFollowTheFiles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	log := slog.New(slog.DiscardHandler)
	write := func(day, content string, mtime time.Time) {
		p := dayfiles.Path(dir, date.MustParse(day))
		if err := os.MkdirAll(p[:len(p)-len("/05.md")], 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	write("2026-03-01", "# 2026-03-01\n\n- 09:00 one\n- 10:00 two\n", t0)
	write("2026-03-02", "# 2026-03-02\n\n- 09:00 caf\xe9\n", t0)
	write("2026-03-03", "# 2026-03-03\n\n- 09:00 three\n", t0)
	var c entryCounts
	counts := func() []int {
		files, err := dayfiles.List(dir, date.Range{}, log)
		if err != nil {
			t.Fatal(err)
		}
		n, _, err := c.of(ctx, files, log)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if got := counts(); !slices.Equal(got, []int{2, -1, 1}) {
		t.Fatalf("counts %v, want [2 -1 1]", got)
	}
	write("2026-03-02", "# 2026-03-02\n\n- 09:00 cafe\n- 11:00 fixed\n", t0.Add(time.Minute))
	write("2026-03-03", "# 2026-03-03\n\n- 09:00 three\n- 10:00 four\n- 11:00 five\n", t0.Add(time.Minute))
	if err := os.Remove(dayfiles.Path(dir, date.MustParse("2026-03-01"))); err != nil {
		t.Fatal(err)
	}
	if got := counts(); !slices.Equal(got, []int{2, 3}) {
		t.Fatalf("after edits: counts %v, want [2 3]", got)
	}
	// The same size and time: the count kept is used, the file not read.
	write("2026-03-03", "# 2026-03-03\n\n- 09:00 three\n  10:00 four\n- 11:00 five\n", t0.Add(time.Minute))
	if got := counts(); !slices.Equal(got, []int{2, 3}) {
		t.Fatalf("unchanged size and time: counts %v, want the kept [2 3]", got)
	}
	if len(c.byPath) != 2 {
		t.Errorf("%d days kept, want the 2 that are there", len(c.byPath))
	}
}
