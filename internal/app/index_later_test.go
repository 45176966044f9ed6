package app_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/models/offline"
)

// TestRememberTurnsAreIndexedInABatch checks the chat turns' write: in the
// day file at once, in the index a moment later (waited for, never slept
// on), and what still waits is indexed by Close, before the index closes.
func TestRememberTurnsAreIndexedInABatch(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := newApp(t, dir)
	if _, err := a.Remember(ctx, daybook.RememberRequest{Text: "the index opens for this one"}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Recall(ctx, daybook.RecallRequest{Query: "index opens"}); err != nil { // opens the index
		t.Fatal(err)
	}
	resps, err := a.RememberTurns(ctx, []daybook.RememberRequest{
		{Text: "user: where do the herons nest?", Kind: "chat"},
		{Text: "llama3.2: by the old boathouse", Kind: "chat"},
	})
	if err != nil || len(resps) != 2 || resps[0].ID == "" || resps[1].ID == "" {
		t.Fatalf("RememberTurns: %+v, %v", resps, err)
	}
	day, err := a.Day(ctx, daybook.DayRequest{Date: resps[0].Date})
	if err != nil || len(day.Entries) != 3 {
		t.Fatalf("the day file holds %+v (%v), want the two turns beside the first entry", day.Entries, err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; {
		resp, err := a.Recall(ctx, daybook.RecallRequest{Query: "boathouse", Mode: "bm25"})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Results) > 0 && resp.Results[0].ID == resps[1].ID && resp.Method.Start != daybook.MethodLinear {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the reply is not in the index 30 s after it was written: %+v (%s)", resp.Results, resp.Method.Start)
		}
		time.Sleep(20 * time.Millisecond) // polling a condition
	}

	last, err := a.RememberTurns(ctx, []daybook.RememberRequest{{Text: "user: and the otters?", Kind: "chat"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	x, err := index.Open(ctx, filepath.Join(dir, app.IndexDir), index.Options{Embedder: offline.NewEmbedder()})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	hits, err := x.Rank(ctx, index.Query{Text: "otters", Level: date.LevelEntry, K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].ID != last[0].ID {
		t.Fatalf("the turn written just before Close is not in the index it left: %+v", hits)
	}
}
