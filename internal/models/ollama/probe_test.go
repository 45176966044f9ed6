package ollama

import (
	"context"
	"strings"
	"testing"

	"github.com/daybook/daybook/internal/models/ollama/ollamatest"
)

func TestProbe(t *testing.T) {
	srv := ollamatest.New(t, "llama3.2", "nomic-embed-text:latest", "mistral:7b")
	srv.SetDim(768)
	p := ProbeServer(context.Background(), testConfig(srv.URL))
	if p.Err != nil || !p.Summary || !p.Embed || p.Dim != 768 || len(p.Models) != 3 {
		t.Errorf("probe = %+v", p)
	}

	srv.SetModels("llama3.2:1b")
	p = ProbeServer(context.Background(), testConfig(srv.URL))
	if p.Err != nil || p.Summary || p.Embed || p.Dim != 0 || !strings.Contains(p.EmbedErr.Error(), `"nomic-embed-text" is not pulled`) {
		t.Errorf("probe without the models = %+v", p)
	}

	p = ProbeServer(context.Background(), testConfig(ollamatest.DeadURL(t)))
	if p.Err == nil || !strings.Contains(p.Err.Error(), "connection refused") {
		t.Errorf("probe of a dead server: %v", p.Err)
	}
}
