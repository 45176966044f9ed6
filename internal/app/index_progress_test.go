package app_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/app"
)

// The first build of the index reports its progress, never backwards, up
// to every file it read.
func TestIndexBuildReportsProgress(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := twelveDays(t, dir)
	var calls int
	var lastDone, lastTotal int
	a.Close()
	b := app.NewWith(dir, a.Config(), nil, app.Options{IndexProgress: func(done, total int) {
		calls++
		if done < lastDone || total < lastTotal || done > total {
			t.Errorf("progress went %d/%d after %d/%d", done, total, lastDone, lastTotal)
		}
		lastDone, lastTotal = done, total
	}})
	defer b.Close()
	if _, err := b.Index(ctx); err != nil {
		t.Fatal(err)
	}
	if lastTotal < 12 || lastDone != lastTotal || calls == 0 {
		t.Fatalf("progress ended at %d/%d after %d calls, want the 12 day files read", lastDone, lastTotal, calls)
	}
}

// twelveDays returns an App on dir with an entry on each of 12 days, and
// its index not built.
func twelveDays(t *testing.T, dir string) *app.App {
	t.Helper()
	a := newApp(t, dir)
	for d := 1; d <= 12; d++ {
		if _, err := a.Remember(context.Background(), daybook.RememberRequest{Text: fmt.Sprintf("note %d about the garden", d), At: fmt.Sprintf("2026-01-%02d 09:00", d)}); err != nil {
			t.Fatal(err)
		}
	}
	return a
}
