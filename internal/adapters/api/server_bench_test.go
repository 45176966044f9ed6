package api_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/adapters/api"
)

// BenchmarkRoundTrip measures one small request over the socket (a brief
// status: no file is read) and reports the median and 99th percentile.
func BenchmarkRoundTrip(b *testing.B) {
	f := serve(b, newApp(b))
	ctx := context.Background()
	if _, err := f.client.Status(ctx, daybook.StatusRequest{Brief: true}); err != nil {
		b.Fatal(err) // and the connection is open
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		if _, err := f.client.Status(ctx, daybook.StatusRequest{Brief: true}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkRemember50Clients spreads b.N remembers over 50 clients, each
// with its own connection, all writing to the same ten day files.
func BenchmarkRemember50Clients(b *testing.B) {
	const clients = 50
	f := serve(b, newApp(b))
	ctx := context.Background()
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for c := range clients {
		wg.Go(func() {
			client := api.NewClient(f.socket)
			defer client.Close()
			for {
				i := next.Add(1)
				if i > int64(b.N) {
					return
				}
				req := daybook.RememberRequest{Text: fmt.Sprintf("client %d entry %d", c, i),
					At: fmt.Sprintf("2026-03-%02d 10:00", i%10+1)}
				if _, err := client.Remember(ctx, req); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "entries/s")
}

// BenchmarkRemember50Direct is BenchmarkRemember50Clients on the App with no
// socket in between: the difference is what the socket costs.
func BenchmarkRemember50Direct(b *testing.B) {
	const clients = 50
	a := newApp(b)
	ctx := context.Background()
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for c := range clients {
		wg.Go(func() {
			for {
				i := next.Add(1)
				if i > int64(b.N) {
					return
				}
				req := daybook.RememberRequest{Text: fmt.Sprintf("client %d entry %d", c, i),
					At: fmt.Sprintf("2026-03-%02d 10:00", i%10+1)}
				if _, err := a.Remember(ctx, req); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "entries/s")
}
