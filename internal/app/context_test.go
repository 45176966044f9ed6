package app_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/assemble"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/tooling/gen"
)

const foundationText = "# Foundation\n\nI am Kit, the assistant of Dana Reyes.\n\n- Answer briefly.\n- Never delete day files.\n"

// corpus generates years of days ending 2026-03-10, consolidates them, and
// returns an App whose clock reads the day after.
func corpus(tb testing.TB, dir string, years int) *app.App {
	tb.Helper()
	end := date.MustParse("2026-03-10")
	if _, err := gen.Write(dir, gen.Options{Years: years, Seed: 7, End: end}); err != nil {
		tb.Fatal(err)
	}
	a := newTB(tb, dir)
	if _, err := a.Consolidate(context.Background(), daybook.ConsolidateRequest{}); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, app.FoundationFile), []byte(foundationText), 0o644); err != nil {
		tb.Fatal(err)
	}
	return a
}

func newTB(tb testing.TB, dir string) *app.App {
	tb.Helper()
	cfg := config.Default()
	cfg.Timezone = "UTC"
	if err := cfg.Validate(); err != nil {
		tb.Fatal(err)
	}
	a := app.NewWith(dir, cfg, nil, app.Options{Now: func() time.Time { return time.Date(2026, 3, 11, 12, 0, 0, 0, time.UTC) }})
	tb.Cleanup(func() { a.Close() })
	return a
}

// queries returns the planted facts' questions, then fixed ones, 20 in all.
func queries(t *testing.T, dir string) []string {
	f, err := os.Open(filepath.Join(dir, gen.FactsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var qs []string
	sc := bufio.NewScanner(f)
	for sc.Scan() && len(qs) < 20 {
		var fact gen.Fact
		if err := json.Unmarshal(sc.Bytes(), &fact); err != nil {
			t.Fatal(err)
		}
		qs = append(qs, fact.Q)
	}
	for _, q := range []string{"keyboard shortcuts", "Marlin demo", "password reset", "who owns the nightly export",
		"raised beds", "incident paged", "design doc", "sourdough", "release script", "budget euros",
		"standup blocked", "deploy production", "cold start", "1:1", "weather", "retro", "hiring", "on-call load", "tempo run", "#auth"} {
		if len(qs) == 20 {
			break
		}
		qs = append(qs, q)
	}
	return qs
}

// rawTokens is the estimate of the raw day files of the days the items cover.
func rawTokens(t *testing.T, dir string, items []daybook.ContextItem) int {
	days := map[date.Date]bool{}
	for _, it := range items {
		var r date.Range
		switch it.Level {
		case "year", "month", "day":
			level, period, _ := strings.Cut(it.ID, ":")
			p, err := consolidate.ParsePeriod(date.Level(level), period)
			if err != nil {
				t.Fatal(err)
			}
			r = p.Range()
		case "entry":
			d, _ := dayfiles.ParseEntryID(it.ID)
			r = date.Range{From: d, To: d}
		case "line":
			d, _ := date.Parse(it.ID[:10])
			r = date.Range{From: d, To: d}
		default:
			continue
		}
		for d := r.From; !d.After(r.To); d = d.AddDays(1) {
			days[d] = true
		}
	}
	n := 0
	for d := range days {
		data, err := os.ReadFile(dayfiles.Path(dir, d))
		if err == nil {
			n += assemble.Tokens(string(data))
		}
	}
	return n
}

func TestContextOnAGeneratedYear(t *testing.T) {
	if testing.Short() {
		t.Skip("generates, consolidates and indexes a year of days")
	}
	ctx := context.Background()
	dir := t.TempDir()
	a := corpus(t, dir, 1)
	expanded, cited := 0, 0
	for _, q := range queries(t, dir) {
		resp, err := a.Context(ctx, daybook.ContextRequest{Query: q, Budget: 4000})
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if resp.Tokens > resp.Budget || resp.Tokens != assemble.Tokens(resp.Markdown) {
			t.Fatalf("%q: %d tokens (estimate %d) for a budget of %d", q, resp.Tokens, assemble.Tokens(resp.Markdown), resp.Budget)
		}
		if !strings.Contains(resp.Markdown, strings.TrimSpace(foundationText)) {
			t.Fatalf("%q: the foundation is not whole", q)
		}
		raw := rawTokens(t, dir, resp.Items)
		if raw < 10*resp.Tokens {
			t.Errorf("%q: the context is %d tokens for %d raw tokens: under 10×", q, resp.Tokens, raw)
		}
		for id, text := range assemble.ParseEntries(resp.Markdown) {
			cited++
			x, err := a.Expand(ctx, daybook.ExpandRequest{ID: id})
			if err != nil {
				t.Errorf("%q: expand %s: %v", q, id, err)
				continue
			}
			if x.Entry == nil || x.Entry.Text != text {
				t.Errorf("%q: %s in the context reads %q; expand gives %+v", q, id, text, x.Entry)
				continue
			}
			expanded++
		}
		t.Logf("%q: %d tokens, %d items, %d omitted, %.0f× of %d raw tokens", q, resp.Tokens, len(resp.Items), resp.Omitted,
			float64(raw)/float64(resp.Tokens), raw)
	}
	if cited == 0 || expanded != cited {
		t.Fatalf("%d of %d cited entries expand to their exact text", expanded, cited)
	}
	t.Logf("%d of %d cited entries expand to their exact text", expanded, cited)
}

func TestContextEdgeCases(t *testing.T) {
	ctx := context.Background()

	t.Run("empty data dir", func(t *testing.T) {
		a := newApp(t, t.TempDir())
		resp, err := a.Context(ctx, daybook.ContextRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Items) != 0 || resp.Omitted != 0 || resp.Tokens > resp.Budget || !strings.HasPrefix(resp.Markdown, "# daybook context") {
			t.Fatalf("empty dir: %+v", resp)
		}
	})

	dir := t.TempDir()
	a := newAppAt(t, dir, time.Date(2026, 3, 11, 12, 0, 0, 0, time.UTC))
	for _, r := range []daybook.RememberRequest{
		{Text: "Chose Argon2 over bcrypt. #auth", Kind: "decision", At: "2026-03-02 09:14"},
		{Text: "Met Dana Reyes about the launch.", At: "2026-03-03 10:00"},
		{Text: "Launch went live.", Kind: "event", At: "2026-03-10 12:00"},
	} {
		if _, err := a.Remember(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := a.Consolidate(ctx, daybook.ConsolidateRequest{}); err != nil {
		t.Fatal(err)
	}

	t.Run("tiny budget", func(t *testing.T) {
		for _, budget := range []int{1, 5, 20, 40} {
			resp, err := a.Context(ctx, daybook.ContextRequest{Budget: budget})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Tokens > budget {
				t.Fatalf("budget %d: %d tokens", budget, resp.Tokens)
			}
		}
	})

	t.Run("query with no hits", func(t *testing.T) {
		resp, err := a.Context(ctx, daybook.ContextRequest{Query: "zeppelin xylophone"})
		if err != nil {
			t.Fatal(err)
		}
		if !resp.NothingRecalled || !strings.Contains(resp.Markdown, "(nothing recalled)") || !strings.Contains(resp.Markdown, "Launch went live.") {
			t.Fatalf("no hits (nothing_recalled %v):\n%s", resp.NothingRecalled, resp.Markdown)
		}
	})

	t.Run("query with hits comes first", func(t *testing.T) {
		resp, err := a.Context(ctx, daybook.ContextRequest{Query: "argon2 bcrypt"})
		if err != nil {
			t.Fatal(err)
		}
		if resp.NothingRecalled {
			t.Error("argon2 bcrypt: nothing_recalled, though recall found the day")
		}
		_, summaries, _ := strings.Cut(resp.Markdown, "## Memory summaries\n\n")
		if i := strings.Index(summaries, "Argon2"); i < 0 || i > strings.Index(summaries, "[day:2026-03-03]") {
			t.Fatalf("the hit is not first:\n%s", resp.Markdown)
		}
	})

	t.Run("foundation over the budget", func(t *testing.T) {
		big := strings.Repeat("Standing instruction: keep every day file. ", 200)
		os.WriteFile(filepath.Join(dir, app.FoundationFile), []byte(big), 0o644)
		defer os.Remove(filepath.Join(dir, app.FoundationFile))
		resp, err := a.Context(ctx, daybook.ContextRequest{Budget: 500})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(resp.Markdown, strings.TrimSpace(big)) || len(resp.Warnings) != 1 ||
			!strings.Contains(resp.Markdown, "> Warning: foundation.md alone is") {
			t.Fatalf("big foundation: warnings %v", resp.Warnings)
		}
	})

	t.Run("bad input", func(t *testing.T) {
		for _, req := range []daybook.ContextRequest{{Budget: -1}, {Budget: app.MaxContextBudget + 1}, {Query: "caf\xe9"}} {
			if _, err := a.Context(ctx, req); !app.IsUserError(err) {
				t.Errorf("%+v: %v, want a user error", req, err)
			}
		}
		os.WriteFile(filepath.Join(dir, app.FoundationFile), []byte("caf\xe9"), 0o644)
		defer os.Remove(filepath.Join(dir, app.FoundationFile))
		if _, err := a.Context(ctx, daybook.ContextRequest{}); err == nil || !strings.Contains(err.Error(), "foundation.md: not UTF-8") {
			t.Errorf("bad foundation: %v", err)
		}
	})

	t.Run("recorded uses win the last place", func(t *testing.T) {
		// A budget that holds the title, the summaries' heading and about two items.
		req := daybook.ContextRequest{Budget: 110}
		const id = "day:2026-03-02" // the oldest day: the least recent
		if placedIDs(t, a, req)[id] {
			t.Fatalf("%s is placed before any use; the budget is too large for this test", id)
		}
		for range 5 {
			app.RecordUse(a, []string{id})
		}
		if !placedIDs(t, a, req)[id] {
			t.Fatalf("%s, used 5 times, is not placed", id)
		}
		if err := app.FlushUse(a); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(dir, "state", "usage.json")); err != nil {
			t.Fatal(err)
		}
	})
}

func placedIDs(t *testing.T, a *app.App, req daybook.ContextRequest) map[string]bool {
	t.Helper()
	resp, err := a.Context(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, it := range resp.Items {
		out[it.ID] = true
	}
	return out
}
