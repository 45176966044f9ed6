package app_test

import (
	"context"
	"os"
	"testing"

	"github.com/daybook/daybook/internal/adapters/api"
)

// BenchmarkContext5Years assembles contexts on a generated, consolidated
// 5-year corpus and reports the compression (raw tokens of the days the
// context covers over its tokens). The corpus takes a minute or two to
// build, so it runs only with DAYBOOK_LONG=1:
//
//	DAYBOOK_LONG=1 go test ./app -run '^$' -bench Context5Years -benchtime 20x
func BenchmarkContext5Years(b *testing.B) {
	if os.Getenv("DAYBOOK_LONG") == "" {
		b.Skip("set DAYBOOK_LONG=1 to generate and consolidate 5 years")
	}
	ctx := context.Background()
	a := corpus(b, b.TempDir(), 5)
	for _, bc := range []struct{ name, query string }{{"default", ""}, {"query", "keyboard shortcuts decision"}} {
		b.Run(bc.name, func(b *testing.B) {
			req := api.ContextRequest{Query: bc.query}
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
