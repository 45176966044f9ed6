package ollama

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook/internal/models/ollama/ollamatest"
)

// TestGuardDefersVectors: during an outage Embed fails fast with
// ErrUnavailable and a retry time, keeps its name, and never asks another
// model; when Ollama is back the vectors come from it again.
func TestGuardDefersVectors(t *testing.T) {
	srv := ollamatest.New(t, "nomic-embed-text")
	log, lb := newLog(t)
	e, _ := NewEmbedder(testConfig(srv.URL), log)
	g := GuardEmbedder(e, log)
	clock := &fakeClock{now: time.Date(2026, 11, 23, 2, 0, 0, 0, time.UTC)}
	g.SetClock(clock.Now, time.Minute)
	ctx := context.Background()
	if _, err := g.Embed(ctx, texts(3)); err != nil {
		t.Fatal(err)
	}

	srv.SetModels() // the model was removed
	for i := range 100 {
		vecs, err := g.Embed(ctx, texts(3))
		var ue *UnavailableError
		if !errors.As(err, &ue) || !errors.Is(err, ErrUnavailable) || vecs != nil {
			t.Fatalf("call %d: err = %v", i, err)
		}
		if ue.RetryAfter.Before(clock.Now()) || ue.RetryAfter.Sub(clock.Now()) > time.Minute {
			t.Errorf("RetryAfter %v, now %v", ue.RetryAfter, clock.Now())
		}
		if !IsModelMissing(err) {
			t.Errorf("call %d: IsModelMissing false for %v", i, err)
		}
	}
	if got := srv.Calls("/api/embed"); got != 2 {
		t.Errorf("%d embed requests; want 2: the guard must not ask during the cooldown", got)
	}
	if lb.count("WARN", "ollama unavailable") != 1 {
		t.Errorf("want one warning")
	}
	if g.Name() != "ollama/nomic-embed-text" || g.InUse() != "ollama/nomic-embed-text (unavailable: new vectors wait)" {
		t.Errorf("Name %q InUse %q", g.Name(), g.InUse())
	}

	srv.SetModels("nomic-embed-text")
	clock.Add(time.Minute)
	vecs, err := g.Embed(ctx, texts(3))
	if err != nil || len(vecs) != 3 {
		t.Fatalf("after recovery: %d vectors, %v", len(vecs), err)
	}
	if g.InUse() != "ollama/nomic-embed-text" || lb.count("INFO", "ollama answers again") != 1 {
		t.Errorf("recovery not seen: InUse %q", g.InUse())
	}
}

// TestGuardDimensionChange: a new dimension is not an outage; it passes
// through as ErrDimensionChanged.
func TestGuardDimensionChange(t *testing.T) {
	srv := ollamatest.New(t, "nomic-embed-text")
	srv.OnEmbed(func(n int, _ *api.EmbedRequest) ollamatest.EmbedReply { return ollamatest.EmbedReply{Dim: 4 + n} })
	e, _ := NewEmbedder(testConfig(srv.URL), nil)
	g := GuardEmbedder(e, nil)
	g.Embed(context.Background(), texts(1))
	_, err := g.Embed(context.Background(), texts(1))
	if !errors.Is(err, ErrDimensionChanged) || errors.Is(err, ErrUnavailable) {
		t.Errorf("err = %v", err)
	}
	if down, _, _ := g.Outage(); down {
		t.Errorf("a dimension change counted as an outage")
	}
}
