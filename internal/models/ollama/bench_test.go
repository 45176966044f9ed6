package ollama

import (
	"context"
	"testing"

	"github.com/daybook/daybook/internal/models/ollama/ollamatest"
)

// BenchmarkEmbed measures the client side of embedding 64 texts (two
// batches) against the fake server over loopback: JSON both ways, checks and
// normalisation. A real model adds its own time on top.
func BenchmarkEmbed(b *testing.B) {
	srv := ollamatest.New(b, "nomic-embed-text")
	srv.SetDim(768)
	e, _ := NewEmbedder(testConfig(srv.URL), nil)
	in := texts(64)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Embed(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(in)), "µs/text")
}

// BenchmarkSplit measures cutting a large month (3,000 rendered items) into
// parts that fit an 8k context.
func BenchmarkSplit(b *testing.B) {
	in := dayInput(3000)
	lines := make([]string, len(in.Items))
	for i, it := range in.Items {
		lines[i] = render(it)
	}
	s := &Summarizer{contextTokens: 8192}
	budget := s.bodyBudget(250)
	b.ReportAllocs()
	for b.Loop() {
		if len(split(lines, budget, false)) < 2 {
			b.Fatal("not split")
		}
	}
}
