package assemble_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/assemble"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/recall"
)

// importedApp returns an App on a data dir of real day files made of
// lines, consolidated and indexed, today being 2026-03-10.
func importedApp(t *testing.T, lines []daybook.ImportLine) *app.App {
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
	if resp, err := a.Import(ctx, &buf, daybook.ImportOptions{}); err != nil || len(resp.Rejected) > 0 {
		t.Fatalf("import: %v %+v", err, resp.Rejected)
	}
	if _, err := a.Consolidate(ctx, daybook.ConsolidateRequest{}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Reindex(ctx, daybook.ReindexRequest{}); err != nil {
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
	var lines []daybook.ImportLine
	// Twelve days whose one entry shares a word of the query: each is the
	// best entry of its day, a hit of its own.
	for d := 1; d <= 12; d++ {
		lines = append(lines, daybook.ImportLine{At: fmt.Sprintf("2025-03-%02dT09:00:00", d),
			Text: fmt.Sprintf("Kim: My sweet tooth wanted cake again on day %d.", d)})
		for i := range 6 {
			lines = append(lines, daybook.ImportLine{At: fmt.Sprintf("2025-03-%02dT1%d:00:00", d, i),
				Text: fmt.Sprintf("Kim: Errand %d of day %d: the bank, the post office and the bakery.", i, d)})
		}
	}
	// The day of the exchange: the question, 38 messages about something
	// else (more than the budget), then the answer.
	lines = append(lines, daybook.ImportLine{At: "2025-03-20T18:00:00", Text: hit})
	for i := range 38 {
		lines = append(lines, daybook.ImportLine{At: fmt.Sprintf("2025-03-20T18:%02d:00", 1+i), Text: fmt.Sprintf(chatter, i)})
	}
	lines = append(lines, daybook.ImportLine{At: "2025-03-20T18:45:00", Text: far})
	a := importedApp(t, lines)

	resp, err := a.Context(context.Background(), daybook.ContextRequest{Query: "What about the dentist and the aching tooth?", Budget: 1000})
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

// When the query names a speaker of the hits, that speaker's reply eleven
// messages after the hit is worth more than the other side's eighth
// message; when it names none, distance alone decides.
func TestTheNamedSpeakersReplyReachesFurther(t *testing.T) {
	const (
		hit    = "Lee: I finally went hiking last weekend, it was wonderful."
		answer = "Lee: We walked all the way up to the old lighthouse above the bay."
		other  = "Dana: That reminds me of the summer we spent painting the garden fence, message %d of a long story."
	)
	var lines []daybook.ImportLine
	// Lee's earlier messages: a name that most entries hold weighs nothing.
	for i := range 20 {
		lines = append(lines, daybook.ImportLine{At: fmt.Sprintf("2025-03-20T09:%02d:00", i), Text: fmt.Sprintf("Lee: List item %d: milk.", i)})
	}
	lines = append(lines, daybook.ImportLine{At: "2025-03-20T10:00:00", Text: hit})
	for i := range 10 {
		lines = append(lines, daybook.ImportLine{At: fmt.Sprintf("2025-03-20T10:%02d:00", 1+i), Text: fmt.Sprintf(other, i+1)})
	}
	lines = append(lines, daybook.ImportLine{At: "2025-03-20T10:30:00", Text: answer})
	a := importedApp(t, lines)
	d := date.Date{Year: 2025, Month: 3, Day: 20}
	day, err := dayfiles.ParseFile(filepath.Join(a.Dir(), dayfiles.RelPath(d)), d)
	if err != nil {
		t.Fatal(err)
	}
	id := func(text string) string {
		for _, e := range day.Entries {
			if e.Text == text {
				return e.ID
			}
		}
		t.Fatalf("no entry %q", text)
		return ""
	}
	for _, tt := range []struct {
		query string
		named bool
	}{
		{"Where did Lee go hiking?", true},
		{"Where did the hiking trip go?", false},
	} {
		g, err := assemble.Gather(context.Background(), assemble.GatherInput{Dir: a.Dir(), Today: date.Date{Year: 2026, Month: 3, Day: 10},
			Budget: 2000, Evidence: true, Words: recall.NewQueryWords(tt.query),
			Hits: []daybook.RecallResult{{ID: id(hit), Level: "entry", Period: d.String(), Score: 1}}})
		if err != nil {
			t.Fatal(err)
		}
		rel := map[string]float64{}
		for _, c := range g.Candidates {
			rel[c.ID] = c.Relevance
		}
		reply, eighth := rel[id(answer)], rel[id(fmt.Sprintf(other, 8))]
		if reply == 0 || eighth == 0 {
			t.Fatalf("%q: the reply (%v) or the eighth message (%v) was not read", tt.query, reply, eighth)
		}
		if tt.named != (reply > eighth) {
			t.Errorf("%q: the reply has relevance %.3f, the other speaker's eighth message %.3f", tt.query, reply, eighth)
		}
	}
}

// A long hit is cut at a word to 60 tokens, as a neighbour is to 30: its
// line expands to it whole.
func TestALongHitIsCut(t *testing.T) {
	long := "Lee: " + strings.Repeat("The ferry to the island was late again and the harbour was full of gulls. ", 8)
	a := importedApp(t, []daybook.ImportLine{{At: "2025-03-20T10:00:00", Text: strings.TrimSpace(long)}})
	d := date.Date{Year: 2025, Month: 3, Day: 20}
	day, err := dayfiles.ParseFile(filepath.Join(a.Dir(), dayfiles.RelPath(d)), d)
	if err != nil || len(day.Entries) != 1 {
		t.Fatalf("parse: %v, %d entries", err, len(day.Entries))
	}
	e := day.Entries[0]
	g, err := assemble.Gather(context.Background(), assemble.GatherInput{Dir: a.Dir(), Today: date.Date{Year: 2026, Month: 3, Day: 10},
		Budget: 2000, Evidence: true, Words: recall.NewQueryWords("ferry harbour"),
		Hits: []daybook.RecallResult{{ID: e.ID, Level: "entry", Period: d.String(), Score: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range g.Candidates {
		if c.ID != e.ID {
			continue
		}
		want, _ := assemble.EvidenceLineCut(e, 60)
		if !c.Cut || c.Head != want || !strings.HasSuffix(c.Head, " …") {
			t.Errorf("the hit is %q (cut %v), want %q", c.Head, c.Cut, want)
		}
		return
	}
	t.Fatalf("no candidate of the hit: %+v", g.Candidates)
}
