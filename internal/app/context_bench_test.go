package app_test

import (
	"context"
	"os"
	"testing"

	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/app/apptest"
	"github.com/daybook/daybook/internal/config"
)

// BenchmarkContext5Years assembles contexts on a generated, consolidated
// 5-year corpus and reports the compression (raw tokens of the days the
// context covers over its tokens). The corpus takes a minute or two to
// build, so it runs only with DAYBOOK_LONG=1:
//
//	DAYBOOK_LONG=1 go test ./internal/app -run '^$' -bench Context5Years -benchtime 20x
//
// DAYBOOK_BENCH_DIR=DIR runs it on a data dir made beforehand instead
// (daybook gen --years 5 DIR; daybook --dir DIR consolidate), today being
// today, so that runs before and after a change time the same files.
func BenchmarkContext5Years(b *testing.B) {
	ctx := context.Background()
	var a *app.App
	if dir := os.Getenv("DAYBOOK_BENCH_DIR"); dir != "" {
		a = apptest.New(b, dir) // today being today
	} else if os.Getenv("DAYBOOK_LONG") != "" {
		a = corpus(b, b.TempDir(), 5)
	} else {
		b.Skip("set DAYBOOK_LONG=1 to generate and consolidate 5 years, or DAYBOOK_BENCH_DIR to a data dir")
	}
	for _, bc := range []struct {
		name, query string
		budget      int // 0: the default
	}{
		{"default", "", 0},
		{"query", "keyboard shortcuts decision", 0},
		{"prompt", "who owns the nightly export job?", config.Default().Hooks.PromptBudget}, // as the prompt hook asks
	} {
		b.Run(bc.name, func(b *testing.B) {
			req := api.ContextRequest{Query: bc.query, Budget: bc.budget}
			first, err := a.Context(ctx, req) // opens and builds the index for a query
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				if _, err := a.Context(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(first.RawTokens)/float64(first.Tokens), "compression")
			b.ReportMetric(float64(first.Tokens), "tokens")
		})
	}
}
