package ollama

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/daybook/daybook/index"
)

// EmbedGuard wraps the Ollama embedder so that an outage never mixes vector
// spaces. While Ollama is down, slow or missing the model, Embed fails with
// an *UnavailableError (matching ErrUnavailable) carrying RetryAfter, at once
// during the cooldown instead of waiting out a timeout per batch. The index
// treats that as "retry later": it keeps the items in its text side without
// vectors and embeds them when Ollama answers again, so recall keeps working
// on text and the linear scan meanwhile. Its Name stays the primary's: the
// index never re-embeds because of an outage.
//
// The offline embedder is not used for documents while ollama.enabled is
// true: switching spaces would mean re-embedding everything at the start of
// an outage and again at its end.
type EmbedGuard struct {
	primary index.Embedder
	h       *health
}

// GuardEmbedder wraps primary.
func GuardEmbedder(primary index.Embedder, log *slog.Logger) *EmbedGuard {
	return &EmbedGuard{primary: primary, h: newHealth("embeddings", primary.Name(), log)}
}

// SetClock sets the clock and the cooldown; call it before first use.
func (g *EmbedGuard) SetClock(now func() time.Time, cooldown time.Duration) {
	g.h.now, g.h.cooldown = now, cooldown
}

// Name is the primary's name, outage or not.
func (g *EmbedGuard) Name() string { return g.primary.Name() }

// Embed implements index.Embedder.
func (g *EmbedGuard) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if !g.h.allow() {
		_, _, retryAt, err := g.h.state()
		return nil, &UnavailableError{Op: "embedding", Model: g.Name(), RetryAfter: retryAt, Err: cause(err)}
	}
	vecs, err := g.primary.Embed(ctx, texts)
	switch {
	case err == nil:
		g.h.succeeded()
		return vecs, nil
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.Is(err, ErrDimensionChanged):
		return nil, err // the model changed, not an outage
	}
	g.h.failed(err, "none: vectors wait for ollama")
	_, _, retryAt, _ := g.h.state()
	return nil, &UnavailableError{Op: "embedding", Model: g.Name(), RetryAfter: retryAt, Err: cause(err)}
}

// cause unwraps an UnavailableError to what went wrong, so that wrapping it
// again does not repeat its words.
func cause(err error) error {
	var ue *UnavailableError
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// InUse names the embedder; during an outage it adds that vectors wait.
func (g *EmbedGuard) InUse() string {
	if down, _, _, _ := g.h.state(); down {
		return g.Name() + " (unavailable: new vectors wait)"
	}
	return g.Name()
}

// Outage reports whether Ollama is failing, since when, and why.
func (g *EmbedGuard) Outage() (down bool, since time.Time, err error) {
	down, since, _, err = g.h.state()
	return down, since, err
}
