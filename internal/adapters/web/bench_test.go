package web

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/app/apptest"
	"github.com/daybook/daybook/internal/tooling/gen"
)

// benchCorpus is five generated years, without summaries: the timeline
// reads only the day files.
var benchCorpus struct {
	once sync.Once
	dir  string
	err  error
}

func fiveYears(b *testing.B) string {
	benchCorpus.once.Do(func() {
		benchCorpus.dir, benchCorpus.err = os.MkdirTemp("", "daybook-web-bench-")
		if benchCorpus.err == nil {
			_, benchCorpus.err = gen.Write(benchCorpus.dir, gen.Options{Years: 5, Seed: 1, End: date.MustParse("2025-12-31")})
		}
	})
	if benchCorpus.err != nil {
		b.Fatal(benchCorpus.err)
	}
	return benchCorpus.dir
}

// BenchmarkTimelineFiveYears renders the timeline of five years once the
// day files are counted: what every visit after the first costs.
func BenchmarkTimelineFiveYears(b *testing.B) {
	dir := fiveYears(b)
	a := apptest.New(b, dir, apptest.At(testNow))
	h, err := NewHandler(a, Options{Dir: dir, Token: "bench-token-bench-token-bench-token", Now: a.Now, Loc: time.UTC,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	get := func() *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "http://127.0.0.1/", nil)
		req.AddCookie(&http.Cookie{Name: cookieName, Value: "bench-token-bench-token-bench-token"})
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 {
			b.Fatalf("status %d", w.Code)
		}
		return w
	}
	get() // count the day files
	for b.Loop() {
		get()
	}
}

// BenchmarkCountDayFilesCold counts five years of day files from nothing:
// what the daemon does in the background when the page starts.
func BenchmarkCountDayFilesCold(b *testing.B) {
	dir := fiveYears(b)
	for b.Loop() {
		act := newActivity(dir, slog.New(slog.DiscardHandler))
		if _, err := act.snapshot(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
