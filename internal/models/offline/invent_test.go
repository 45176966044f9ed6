package offline_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/models/offline"
	"github.com/daybook/daybook/internal/tooling/eval"
	"github.com/daybook/daybook/internal/tooling/gen"
)

// TestSummariesInventNothing consolidates a generated year with the
// offline summarizer and checks every sentence of every day's, month's
// and the year's prose against the period's day files (eval.Held): a
// summary may leave out, never invent.
func TestSummariesInventNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: consolidates a generated year")
	}
	root := t.TempDir()
	if _, err := gen.Write(root, gen.Options{Years: 1, Seed: 5, End: date.MustParse("2025-12-31")}); err != nil {
		t.Fatal(err)
	}
	c := &consolidate.Consolidator{Root: root, Loc: time.UTC, Summarizer: offline.NewSummarizer(),
		Now: func() time.Time { return time.Date(2026, 1, 2, 12, 0, 0, 0, time.UTC) }}
	if _, err := c.Run(context.Background(), consolidate.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	files, err := dayfiles.List(root, date.Range{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string][]string{} // period (day, month, year) → its entries' and notes' texts
	for _, f := range files {
		day, err := dayfiles.ParseFile(f.Path, f.Date)
		if err != nil {
			t.Fatal(err)
		}
		d := f.Date.String()
		for _, e := range day.Entries {
			for _, p := range []string{d, d[:7], d[:4]} {
				texts[p] = append(texts[p], e.Text)
			}
		}
		for _, n := range day.Notes {
			for _, p := range []string{d, d[:7], d[:4]} {
				texts[p] = append(texts[p], n.Text)
			}
		}
	}
	count := map[string][2]int{} // level → sentences, invented
	for period, ts := range texts {
		level := map[int]string{10: "day", 7: "month", 4: "year"}[len(period)]
		s, err := consolidate.ReadSummary(filepath.Join(root, "summaries", strings.ReplaceAll(period, "-", "/")+".md"))
		if err != nil {
			t.Fatal(err)
		}
		n, bad := eval.Invented(s.Prose, ts)
		for i, b := range bad {
			if i < 3 {
				t.Errorf("%s %s: %q is in none of its day files", level, period, b)
			}
		}
		c := count[level]
		count[level] = [2]int{c[0] + n, c[1] + len(bad)}
	}
	t.Logf("invented sentences: days %d of %d, months %d of %d, year %d of %d",
		count["day"][1], count["day"][0], count["month"][1], count["month"][0], count["year"][1], count["year"][0])
	if count["month"][0] < 100 || count["year"][0] < 10 {
		t.Fatalf("sentences %v: the summaries are too short to tell", count)
	}
}
