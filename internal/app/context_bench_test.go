package app_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/daybook/daybook"
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
	a := fiveYears(b) // today being today
	for _, bc := range []struct {
		name, query string
		budget      int // 0: the default
	}{
		{"default", "", 0},
		{"query", "keyboard shortcuts decision", 0},
		{"prompt", "who owns the nightly export job?", config.Default().Hooks.PromptBudget}, // as the prompt hook asks
	} {
		b.Run(bc.name, func(b *testing.B) {
			req := daybook.ContextRequest{Query: bc.query, Budget: bc.budget}
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

// BenchmarkContextAfterWrite5Years times a context for a chat's question
// right after an entry was remembered, as the memory proxy builds the next
// turn's block right after the last turn was written: the write's indexing
// and what it makes the next context read again (today's day, the index's
// new generation) count, the write itself does not. The corpus is as
// BenchmarkContext5Years's; DAYBOOK_BENCH_DIR's is written to (use a copy made by cp -a).
//
//	DAYBOOK_BENCH_DIR=COPY go test ./internal/app -run '^$' -bench ContextAfterWrite -benchtime 200x
func BenchmarkContextAfterWrite5Years(b *testing.B) {
	ctx := context.Background()
	a := fiveYears(b, apptest.Options(app.Options{BackgroundCatchUp: true})) // as the daemon runs it
	questions := []string{"who owns the nightly export job?", "when did I last see the dentist?", "what did I decide about the keyboard shortcuts?"}
	for _, write := range []bool{false, true} {
		name := "no-write"
		if write {
			name = "after-write"
		}
		b.Run(name, func(b *testing.B) {
			if _, err := a.Context(ctx, daybook.ContextRequest{Query: questions[0], Budget: config.Default().Proxy.Budget}); err != nil {
				b.Fatal(err)
			}
			i := 0
			for b.Loop() {
				q := questions[i%len(questions)]
				if write {
					b.StopTimer()
					if _, err := a.Remember(ctx, daybook.RememberRequest{Text: fmt.Sprintf("user: %s (turn %d) #chat/bench", q, i), Kind: "chat"}); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				if _, err := a.Context(ctx, daybook.ContextRequest{Query: q, Budget: config.Default().Proxy.Budget}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// fiveYears returns an App on DAYBOOK_BENCH_DIR's data dir, with opts, or
// on 5 generated and consolidated years with DAYBOOK_LONG=1; else the
// benchmark is skipped.
func fiveYears(b *testing.B, opts ...apptest.Option) *app.App {
	b.Helper()
	if dir := os.Getenv("DAYBOOK_BENCH_DIR"); dir != "" {
		return apptest.New(b, dir, opts...)
	}
	if os.Getenv("DAYBOOK_LONG") == "" {
		b.Skip("set DAYBOOK_LONG=1 to generate and consolidate 5 years, or DAYBOOK_BENCH_DIR to a data dir (a cp -a copy when the benchmark writes)")
	}
	return corpus(b, b.TempDir(), 5)
}
