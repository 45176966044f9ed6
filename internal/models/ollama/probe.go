package ollama

import (
	"context"
	"fmt"
	"time"

	"github.com/daybook/daybook/internal/config"
)

// Probe is what `daybook doctor` learns from the Ollama server.
type Probe struct {
	URL        string
	Err        error    // the server did not answer /api/tags; the rest is empty
	Models     []string // pulled models, as /api/tags names them
	Summary    bool     // the summary model is pulled
	Embed      bool     // the embedding model is pulled
	Dim        int      // the dimension of one /api/embed answer
	EmbedErr   error    // why there is no Dim
	EmbedModel string
}

// ProbeTimeout bounds the reachability check.
const ProbeTimeout = 5 * time.Second

// ProbeServer asks the server for its models and one embedding.
func ProbeServer(ctx context.Context, cfg config.Ollama) Probe {
	p := Probe{URL: cfg.URL, EmbedModel: cfg.EmbedModel}
	c, err := newClient(cfg)
	if err != nil {
		p.Err = err
		return p
	}
	lctx, cancel := context.WithTimeout(ctx, min(ProbeTimeout, cfg.Timeout))
	list, err := c.List(lctx)
	cancel()
	if err != nil {
		p.Err = fmt.Errorf("listing models: %w", err)
		return p
	}
	for _, m := range list.Models {
		p.Models = append(p.Models, m.Name)
		p.Summary = p.Summary || sameModel(m.Name, cfg.SummaryModel)
		p.Embed = p.Embed || sameModel(m.Name, cfg.EmbedModel)
	}
	if !p.Embed {
		p.EmbedErr = fmt.Errorf("model %q is not pulled", cfg.EmbedModel)
		return p
	}
	e, err := NewEmbedder(cfg, nil)
	if err != nil {
		p.EmbedErr = err
		return p
	}
	vecs, err := e.Embed(ctx, []string{"daybook doctor checks the embedding dimension."})
	if err != nil {
		p.EmbedErr = err
		return p
	}
	p.Dim = len(vecs[0])
	return p
}
