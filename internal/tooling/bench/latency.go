package bench

import (
	"context"
	"math"
	"slices"
	"time"
)

// summarise turns timings into a Latency.
func summarise(ds []time.Duration) Latency {
	if len(ds) == 0 {
		return Latency{}
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	ms := func(d time.Duration) float64 { return math.Round(float64(d.Microseconds())) / 1000 }
	at := func(q float64) time.Duration {
		i := int(math.Ceil(q*float64(len(s)))) - 1
		return s[min(max(i, 0), len(s)-1)]
	}
	return Latency{N: len(s), P50: ms(at(0.50)), P99: ms(at(0.99)), Max: ms(s[len(s)-1])}
}

// repeat calls fn n times over the queries in turn and times each call.
func repeat(ctx context.Context, queries []string, n int, fn func(ctx context.Context, q string) error) ([]time.Duration, error) {
	out := make([]time.Duration, 0, n)
	for i := range n {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		t0 := time.Now()
		if err := fn(ctx, queries[i%len(queries)]); err != nil {
			return out, err
		}
		out = append(out, time.Since(t0))
	}
	return out, nil
}
