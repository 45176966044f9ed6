package ollama

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook/internal/models/ollama/ollamatest"
)

func texts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("entry %d about the parser", i)
	}
	return out
}

func TestEmbedBatchesAndNormalises(t *testing.T) {
	srv := ollamatest.New(t, "nomic-embed-text")
	srv.SetDim(16)
	e, err := NewEmbedder(testConfig(srv.URL), nil)
	if err != nil {
		t.Fatal(err)
	}
	if e.Name() != "ollama/nomic-embed-text" {
		t.Errorf("Name() = %q", e.Name())
	}
	in := texts(70)
	vecs, err := e.Embed(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	var sizes []int
	for _, b := range srv.EmbedInputs() {
		sizes = append(sizes, len(b))
	}
	if fmt.Sprint(sizes) != "[32 32 6]" {
		t.Errorf("batches of %v, want [32 32 6]", sizes)
	}
	if len(vecs) != len(in) || e.Dim() != 16 {
		t.Fatalf("%d vectors of dim %d for %d texts", len(vecs), e.Dim(), len(in))
	}
	for i, v := range vecs {
		raw := ollamatest.Vector(in[i], 16)
		var norm, rawNorm, dot float64
		for j := range v {
			norm += float64(v[j]) * float64(v[j])
			rawNorm += float64(raw[j]) * float64(raw[j])
			dot += float64(v[j]) * float64(raw[j])
		}
		if math.Abs(norm-1) > 1e-5 {
			t.Errorf("vector %d has length² %v, want 1", i, norm)
		}
		if cos := dot / math.Sqrt(norm*rawNorm); math.Abs(cos-1) > 1e-5 {
			t.Errorf("vector %d is not text %d's (cos %v): order lost", i, i, cos)
		}
	}
}

func TestEmbedDimensionChange(t *testing.T) {
	srv := ollamatest.New(t, "nomic-embed-text")
	e, _ := NewEmbedder(testConfig(srv.URL), nil)
	if _, err := e.Embed(context.Background(), texts(3)); err != nil {
		t.Fatal(err)
	}
	srv.SetDim(12)
	_, err := e.Embed(context.Background(), texts(3))
	if !errors.Is(err, ErrDimensionChanged) || errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "12 dimensions after 8") {
		t.Errorf("err = %v; want ErrDimensionChanged naming 12 after 8", err)
	}
	if e.Dim() != 8 {
		t.Errorf("Dim() = %d after the change, want the first 8", e.Dim())
	}
}

// TestEmbedDimensionChangeInOneCall: no vectors at all come back when the
// second batch of a call has another dimension than the first.
func TestEmbedDimensionChangeInOneCall(t *testing.T) {
	srv := ollamatest.New(t, "nomic-embed-text")
	srv.OnEmbed(func(n int, _ *api.EmbedRequest) ollamatest.EmbedReply {
		return ollamatest.EmbedReply{Dim: 8 * n}
	})
	e, _ := NewEmbedder(testConfig(srv.URL), nil)
	vecs, err := e.Embed(context.Background(), texts(40))
	if !errors.Is(err, ErrDimensionChanged) || vecs != nil {
		t.Errorf("got %d vectors, err %v; want none and ErrDimensionChanged", len(vecs), err)
	}
}

func TestEmbedFailures(t *testing.T) {
	for _, tc := range []struct {
		name    string
		reply   ollamatest.EmbedReply
		model   string
		wantErr string
	}{
		{name: "model not found", model: "all-minilm", wantErr: "model 'nomic-embed-text' not found"},
		{name: "server error", reply: ollamatest.EmbedReply{Status: http.StatusInternalServerError, Error: "input exceeds maximum context length"}, wantErr: "maximum context length"},
		{name: "malformed json", reply: ollamatest.EmbedReply{Malformed: true}, wantErr: "unexpected end of JSON"},
		{name: "wrong count", reply: ollamatest.EmbedReply{Count: 2}, wantErr: "2 vectors for 3 texts"},
		{name: "zero vector", reply: ollamatest.EmbedReply{Zero: true}, wantErr: "vector 1: all zeros"},
		{name: "empty vectors", reply: ollamatest.EmbedReply{Dim: -1}, wantErr: "empty vector"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := tc.model
			if model == "" {
				model = "nomic-embed-text"
			}
			srv := ollamatest.New(t, model)
			srv.OnEmbed(func(int, *api.EmbedRequest) ollamatest.EmbedReply { return tc.reply })
			e, _ := NewEmbedder(testConfig(srv.URL), nil)
			vecs, err := e.Embed(context.Background(), texts(3))
			if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), tc.wantErr) || vecs != nil {
				t.Errorf("err = %v, %d vectors; want ErrUnavailable saying %q", err, len(vecs), tc.wantErr)
			}
		})
	}
}

func TestEmbedDownAndSlow(t *testing.T) {
	e, _ := NewEmbedder(testConfig(ollamatest.DeadURL(t)), nil)
	if _, err := e.Embed(context.Background(), texts(1)); !errors.Is(err, ErrUnavailable) {
		t.Errorf("down: err = %v, want ErrUnavailable", err)
	}
	srv := ollamatest.New(t, "nomic-embed-text")
	srv.OnEmbed(func(int, *api.EmbedRequest) ollamatest.EmbedReply { return ollamatest.EmbedReply{Delay: time.Minute} })
	cfg := testConfig(srv.URL)
	cfg.EmbedTimeout = 100 * time.Millisecond
	e, _ = NewEmbedder(cfg, nil)
	_, err := e.Embed(context.Background(), texts(1))
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "ollama.embed_timeout 100ms") {
		t.Errorf("slow: err = %v, want ErrUnavailable naming the timeout", err)
	}
}
