package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/daybooktest"
)

// With Options.BackgroundCatchUp (the daemon's), the request that opens
// the index catches it up; later requests leave the full catch-up to
// CatchUp, however long ago the last one was.
func TestBackgroundCatchUpLeavesRequestsAlone(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	byHand := func(day int, text string) {
		t.Helper()
		at := time.Date(2026, 1, day, 9, 0, 0, 0, time.UTC)
		if _, err := daybooktest.Append(dir, time.UTC, dayfiles.NewEntry{At: at, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	docs := func(a *app.App) uint64 {
		t.Helper()
		x, err := a.Index(ctx)
		if err != nil {
			t.Fatal(err)
		}
		st, err := x.Stats()
		if err != nil {
			t.Fatal(err)
		}
		return st.Docs
	}
	byHand(5, "Planted tomatoes in the garden")
	now := time.Date(2026, 1, 10, 12, 0, 0, 0, time.UTC)
	a := app.NewWith(dir, newApp(t, dir).Config(), nil, app.Options{BackgroundCatchUp: true, Now: func() time.Time { return now }})
	defer a.Close()
	first := docs(a)
	if first == 0 {
		t.Fatal("the first open did not catch up: no documents")
	}
	byHand(6, "Walked along the harbour")
	now = now.Add(time.Hour) // long past a request's catch-up interval
	if n := docs(a); n != first {
		t.Fatalf("a request caught up (%d documents, then %d): that is CatchUp's work here", first, n)
	}
	if err := a.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	if n := docs(a); n <= first {
		t.Fatalf("CatchUp left %d documents, as many as before the hand edit", n)
	}
}
