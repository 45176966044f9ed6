package app_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/models/offline"
)

func newApp(t *testing.T, dir string) *app.App { return newAppWith(t, dir, app.Options{}) }

// newAppAt is newApp with its clock stopped at now.
func newAppAt(t *testing.T, dir string, now time.Time) *app.App {
	return newAppWith(t, dir, app.Options{Now: func() time.Time { return now }})
}

// newAppWith returns an App on dir in UTC, tuned by opts, closed when t ends.
func newAppWith(t *testing.T, dir string, opts app.Options) *app.App {
	t.Helper()
	cfg := config.Default()
	cfg.Timezone = "UTC"
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	a := app.NewWith(dir, cfg, nil, opts)
	t.Cleanup(func() { a.Close() })
	return a
}

// An entry is found by the very next recall: Remember indexes it before it
// returns, with no wait for the watcher or a catch-up. (How long that takes
// is a benchmark's question, not a test's: a loaded machine stalls.)
func TestRememberThenRecallAtOnce(t *testing.T) {
	ctx := context.Background()
	a := newApp(t, t.TempDir())
	if _, err := a.Remember(ctx, daybook.RememberRequest{Text: "Kept the old router for the lab", At: "2026-01-05 09:00"}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Index(ctx); err != nil { // open, as the daemon does at start
		t.Fatal(err)
	}
	start := time.Now()
	w, err := a.Remember(ctx, daybook.RememberRequest{Text: "Chose Argon2id for password hashing", Kind: "decision"})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := a.Recall(ctx, daybook.RecallRequest{Query: "argon2id password", Mode: "bm25"})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Results) == 0 || resp.Results[0].ID != w.ID {
		t.Fatalf("the entry just written is not recalled first: %+v", resp.Results)
	}
	t.Logf("remember then recall: %s", took)
}

func TestRecallFallsBackWhenIndexBusy(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := newApp(t, dir)
	if _, err := a.Remember(ctx, daybook.RememberRequest{Text: "Kayak trip to the lake", At: "2026-01-05 09:00"}); err != nil {
		t.Fatal(err)
	}
	// Another owner holds the index, as the daemon would.
	x, err := index.Open(ctx, filepath.Join(dir, app.IndexDir), index.Options{Embedder: offline.NewEmbedder()})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	resp, err := a.Recall(ctx, daybook.RecallRequest{Query: "kayak"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Method.Start != daybook.MethodLinear || len(resp.Results) != 1 {
		t.Fatalf("busy index: method %q results %+v", resp.Method, resp.Results)
	}
	if _, err := a.Reindex(ctx, daybook.ReindexRequest{}); !errors.Is(err, index.ErrBusy) {
		t.Fatalf("reindex of a busy index: %v", err)
	}
}

func TestRecallBadInputIsUserError(t *testing.T) {
	a := newApp(t, t.TempDir())
	for _, req := range []daybook.RecallRequest{{Query: "x", From: "soon"}, {Query: "x", Level: "week"}, {Query: string(make([]byte, 1<<20))}} {
		if _, err := a.Recall(context.Background(), req); !app.IsUserError(err) {
			t.Errorf("%.40v: %v, want a user error", req, err)
		}
	}
}
