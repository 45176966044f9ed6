package ollama

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/util/logkey"
)

// DefaultBatch is how many texts go in one /api/embed request.
const DefaultBatch = 32

// Embedder turns texts into vectors with an Ollama embedding model through
// /api/embed. It implements index.Embedder: vectors come back normalised, all
// of one dimension for the life of the Embedder. Its errors match
// ErrUnavailable when Ollama could not do the work, or ErrDimensionChanged.
type Embedder struct {
	client  *api.Client
	model   string
	timeout time.Duration // one batch
	batch   int
	lim     limiter
	log     *slog.Logger

	mu  sync.Mutex
	dim int // the dimension of the first answer; 0 before it
}

// NewEmbedder returns an Embedder for cfg.EmbedModel at cfg.URL.
func NewEmbedder(cfg config.Ollama, log *slog.Logger) (*Embedder, error) {
	c, err := newClient(cfg)
	if err != nil {
		return nil, err
	}
	if cfg.EmbedModel == "" {
		return nil, fmt.Errorf("ollama.embed_model: empty")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Embedder{
		client: c, model: cfg.EmbedModel, timeout: cfg.EmbedTimeout, batch: DefaultBatch,
		lim: newLimiter(cfg.Concurrency), log: log.With(logkey.System, "ollama", "model", cfg.EmbedModel),
	}, nil
}

// Name is "ollama/" and the model; the index records it with the dimension.
func (e *Embedder) Name() string { return "ollama/" + e.model }

// Dim returns the dimension of the vectors so far, 0 before the first.
func (e *Embedder) Dim() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.dim
}

// Embed returns one normalised vector per text, in batches of DefaultBatch
// texts a request. Either every text gets a vector or the call fails.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += e.batch {
		batch := texts[start:min(start+e.batch, len(texts))]
		vecs, err := e.embedBatch(ctx, batch)
		if err != nil {
			return nil, unavailable(ctx, "embedding", e.Name(),
				fmt.Errorf("texts %d..%d of %d: %w", start+1, start+len(batch), len(texts), err))
		}
		out = append(out, vecs...)
	}
	return out, nil
}

func (e *Embedder) embedBatch(ctx context.Context, batch []string) ([][]float32, error) {
	if err := e.lim.acquire(ctx); err != nil {
		return nil, err
	}
	defer e.lim.release()
	ctx, cancel := context.WithTimeoutCause(ctx, e.timeout,
		fmt.Errorf("no answer within ollama.embed_timeout %v", e.timeout))
	defer cancel()
	resp, err := e.client.Embed(ctx, &api.EmbedRequest{Model: e.model, Input: batch})
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%w (%w)", context.Cause(ctx), err)
		}
		return nil, err
	}
	if len(resp.Embeddings) != len(batch) {
		return nil, fmt.Errorf("%d vectors for %d texts", len(resp.Embeddings), len(batch))
	}
	for i, v := range resp.Embeddings {
		if err := normalize(v); err != nil {
			return nil, fmt.Errorf("vector %d: %w", i+1, err)
		}
		if err := e.checkDim(len(v)); err != nil {
			return nil, err
		}
	}
	return resp.Embeddings, nil
}

// checkDim records the first dimension and refuses any other after it.
func (e *Embedder) checkDim(n int) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case n == 0:
		return fmt.Errorf("empty vector")
	case e.dim == 0:
		e.dim = n
		e.log.Debug("embedding dimension", "dim", n)
	case n != e.dim:
		return fmt.Errorf("%w: ollama/%s answered with %d dimensions after %d in this run; the index re-embeds on its next open",
			ErrDimensionChanged, e.model, n, e.dim)
	}
	return nil
}

// normalize scales v to unit length in place.
func normalize(v []float32) error {
	var sum float64
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fmt.Errorf("holds %v", x)
		}
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		if len(v) == 0 {
			return nil // checkDim names it
		}
		return fmt.Errorf("all zeros")
	}
	inv := 1 / math.Sqrt(sum)
	for i := range v {
		v[i] = float32(float64(v[i]) * inv)
	}
	return nil
}
