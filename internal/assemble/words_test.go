package assemble_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/config"
)

// importedApp returns an App on a data dir of real day files made of
// lines, consolidated and indexed, today being 2026-03-10.
func importedApp(t *testing.T, lines []api.ImportLine) *app.App {
	t.Helper()
	ctx := context.Background()
	cfg := config.Default()
	cfg.Timezone = "UTC"
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	a := app.NewWith(t.TempDir(), cfg, nil, app.Options{Now: func() time.Time { return time.Date(2026, 3, 10, 18, 0, 0, 0, time.UTC) }})
	t.Cleanup(func() { a.Close() })
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, l := range lines {
		if err := enc.Encode(l); err != nil {
			t.Fatal(err)
		}
	}
	if resp, err := a.Import(ctx, &buf, api.ImportOptions{}); err != nil || len(resp.Rejected) > 0 {
		t.Fatalf("import: %v %+v", err, resp.Rejected)
	}
	if _, err := a.Consolidate(ctx, api.ConsolidateRequest{}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Reindex(ctx, api.ReindexRequest{}); err != nil {
		t.Fatal(err)
	}
	return a
}

// An answer far from the entry that matched, in a long day, is placed when
// it repeats the query's rare word, before the middle of the chatter
// between them: the chatter right after the hit, and right before the
// answer, still comes first.
func TestAnswerThatRepeatsTheQuerysWordsIsPlaced(t *testing.T) {
	const (
		hit     = "Dana: Did you finally see the dentist about your aching tooth?"
		far     = "Lee: The dentist said the filling can wait until May."
		chatter = "Lee: The coast was grey again this morning, walk number %d along the pier, past the boats and the old harbour wall."
	)
	var lines []api.ImportLine
	// Twelve days whose one entry shares a word of the query: each is the
	// best entry of its day, a hit of its own.
	for d := 1; d <= 12; d++ {
		lines = append(lines, api.ImportLine{At: fmt.Sprintf("2025-03-%02dT09:00:00", d),
			Text: fmt.Sprintf("Kim: My sweet tooth wanted cake again on day %d.", d)})
		for i := range 6 {
			lines = append(lines, api.ImportLine{At: fmt.Sprintf("2025-03-%02dT1%d:00:00", d, i),
				Text: fmt.Sprintf("Kim: Errand %d of day %d: the bank, the post office and the bakery.", i, d)})
		}
	}
	// The day of the exchange: the question, 38 messages about something
	// else (more than the budget), then the answer.
	lines = append(lines, api.ImportLine{At: "2025-03-20T18:00:00", Text: hit})
	for i := range 38 {
		lines = append(lines, api.ImportLine{At: fmt.Sprintf("2025-03-20T18:%02d:00", 1+i), Text: fmt.Sprintf(chatter, i)})
	}
	lines = append(lines, api.ImportLine{At: "2025-03-20T18:45:00", Text: far})
	a := importedApp(t, lines)

	resp, err := a.Context(context.Background(), api.ContextRequest{Query: "What about the dentist and the aching tooth?", Budget: 1000})
	if err != nil {
		t.Fatal(err)
	}
	got := texts(resp.Markdown)
	for _, want := range []string{hit, far, fmt.Sprintf(chatter, 0)} {
		if _, ok := got[want]; !ok {
			t.Errorf("the block has no %q:\n%s", want, resp.Markdown)
		}
	}
	if _, ok := got[fmt.Sprintf(chatter, 22)]; ok {
		t.Errorf("the block reads the whole chatter, not the answer before the middle of it:\n%s", resp.Markdown)
	}
	if resp.Tokens > 1000 {
		t.Errorf("%d tokens for a budget of 1000", resp.Tokens)
	}
}
