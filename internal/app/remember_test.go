package app_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/config/configfile"
)

// One entry dated 9999-12-31 once made the timeline 10,000 years long: a
// date outside the window is refused with a user error naming it, and
// nothing is written for it.
func TestRememberRefusesDatesOutsideTheWindow(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := newAppAt(t, dir, time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC))
	for _, at := range []string{"9999-12-31 10:00", "0001-01-01 10:00", "1899-12-31 23:59", "2026-11-27 08:00"} {
		_, err := a.Remember(ctx, daybook.RememberRequest{Text: "poison", At: at})
		if !app.IsUserError(err) || !errors.Is(err, date.ErrOutsideWindow) || !strings.Contains(err.Error(), at[:10]) {
			t.Errorf("at %s: err = %v, want a user error naming the date", at, err)
		}
	}
	for _, p := range []string{"days/9999", "days/0001", "summaries/0001", "days/1899"} {
		if _, err := os.Stat(filepath.Join(dir, p)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: %v, want nothing written", p, err)
		}
	}
	for _, at := range []string{"1900-01-01 08:00", "2026-11-26 08:00"} {
		if _, err := a.Remember(ctx, daybook.RememberRequest{Text: "fine", At: at}); err != nil {
			t.Errorf("at %s: %v", at, err)
		}
	}
}

func TestRememberWindowFollowsTheConfig(t *testing.T) {
	cfg, err := configfile.Parse("c.yaml", []byte("timezone: UTC\ndates:\n  earliest: 1800-01-01\n"))
	if err != nil {
		t.Fatal(err)
	}
	a := app.New(t.TempDir(), cfg, nil)
	t.Cleanup(func() { a.Close() })
	if _, err := a.Remember(context.Background(), daybook.RememberRequest{Text: "grandfather's note", At: "1850-03-02 09:00"}); err != nil {
		t.Fatalf("1850 with dates.earliest 1800: %v", err)
	}
}

// A day file made by hand far in the future does not lead the "Recent"
// part of every context block.
func TestContextRecentLeavesOutDaysPastTheWindow(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := newAppAt(t, dir, time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC))
	p := filepath.Join(dir, "days", "2999", "12", "31.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("# 2999-12-31 Tuesday\n\n- 10:00 A poisoned line from the future\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Remember(ctx, daybook.RememberRequest{Text: "Fixed the boiler", At: "2026-11-24 09:00"}); err != nil {
		t.Fatal(err)
	}
	resp, err := a.Context(ctx, daybook.ContextRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(resp.Markdown, "poisoned") || !strings.Contains(resp.Markdown, "Fixed the boiler") {
		t.Errorf("context:\n%s", resp.Markdown)
	}
}
