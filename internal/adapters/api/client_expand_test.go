package api_test

import (
	"context"
	"errors"
	"testing"

	"github.com/daybook/daybook"
)

// TestExpandAndBrowseOverTheSocket checks that expand and browse answer the
// same over the socket as on the App, errors included.
func TestExpandAndBrowseOverTheSocket(t *testing.T) {
	f := serve(t, newApp(t))
	ctx := context.Background()
	var ids []string
	for _, r := range []daybook.RememberRequest{
		{Text: "Chose Caddy over nginx", Kind: "decision", At: "2026-02-03 09:14"},
		{Text: "Replaced the router's fan", At: "2026-02-04 18:30"},
	} {
		w, err := f.app.Remember(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, w.ID)
	}
	if _, err := f.app.Consolidate(ctx, daybook.ConsolidateRequest{}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{ids[0], ids[1], "day:2026-02-03", "month:2026-02", "year:2026", "2026-02-04:L1"} {
		if got := same(t, "Expand", daybook.ExpandRequest{ID: id}, f.client.Expand, f.app.Expand); got.Text == "" && got.Summary == "" && len(got.Related) == 0 {
			t.Errorf("Expand(%s) is empty: %+v", id, got)
		}
	}
	if got := same(t, "Browse", daybook.BrowseRequest{Level: "day"}, f.client.Browse, f.app.Browse); len(got.Summaries) != 2 {
		t.Errorf("Browse day: %+v", got)
	}
	same(t, "Browse", daybook.BrowseRequest{Level: "month", From: "2026-01-01", To: "2026-02-28", Limit: 1}, f.client.Browse, f.app.Browse)

	for _, bad := range []daybook.ExpandRequest{{ID: ""}, {ID: "month:2026-13"}, {ID: "2026-02-03T09:14-000000000000"}} {
		_, err := f.client.Expand(ctx, bad)
		var re *daybook.Error
		if !errors.As(err, &re) || !re.UserFault() {
			t.Errorf("Expand(%q) over the socket: %v, want a 400", bad.ID, err)
		}
		same(t, "Expand", bad, f.client.Expand, f.app.Expand)
	}
	for _, bad := range []daybook.BrowseRequest{{Level: "week"}, {Level: "day", Limit: -1}, {Level: "day", From: "soon"}} {
		same(t, "Browse", bad, f.client.Browse, f.app.Browse)
	}
}
