package proxy_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook/internal/adapters/proxy"
)

// List, Show, Heartbeat and Version pass through untouched, as `ollama list` and
// `ollama show` use them.
func TestGoClientListShowPassThrough(t *testing.T) {
	r := newRig(t, proxy.Options{})
	c := r.client()
	ctx := context.Background()
	list, err := c.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Models) != 2 || list.Models[0].Name != "llama3.2:latest" {
		t.Errorf("list = %+v", list.Models)
	}
	show, err := c.Show(ctx, &api.ShowRequest{Model: "llama3.2"})
	if err != nil {
		t.Fatal(err)
	}
	if show.Details.Family != "llama" || show.Modelfile != "FROM llama3.2" {
		t.Errorf("show = %+v", show)
	}
	if _, err := c.Show(ctx, &api.ShowRequest{Model: "mistral"}); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("show of a missing model: err = %v, want Ollama's not found", err)
	}
	if err := c.Heartbeat(ctx); err != nil { // HEAD /, as `ollama run` checks the server
		t.Errorf("heartbeat: %v", err)
	}
	if v, err := c.Version(ctx); err != nil || v != "0.17.4" {
		t.Errorf("version = %q, %v", v, err)
	}
}

// Generate, streaming and not: the memory goes after the request's own
// system prompt; the prompt and the response are remembered.
func TestGoClientGenerate(t *testing.T) {
	for _, stream := range []bool{true, false} {
		t.Run(map[bool]string{true: "stream", false: "whole"}[stream], func(t *testing.T) {
			r := newRig(t, proxy.Options{})
			r.remember("The spare key is under the blue pot.", "2026-04-01 08:00")
			r.up.Reply("Under the blue pot.")
			var b strings.Builder
			var last api.GenerateResponse
			err := r.client().Generate(context.Background(), &api.GenerateRequest{Model: "llama3.2", Stream: &stream,
				System: "Answer briefly.", Prompt: "Where is the spare key?"}, func(g api.GenerateResponse) error {
				b.WriteString(g.Response)
				last = g
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if b.String() != "Under the blue pot." || !last.Done || len(last.Context) == 0 {
				t.Errorf("got %q, final %+v", b.String(), last)
			}
			g := r.up.Generates()[0]
			if !strings.HasPrefix(g.System, "Answer briefly.\n\n") || !strings.Contains(g.System, "blue pot") {
				t.Errorf("system = %q: want the request's own first, then memory", g.System)
			}
			if es := texts(r.chatEntries()); len(es) != 2 || !strings.HasPrefix(es[0], "user: Where is the spare key?") {
				t.Errorf("entries = %q", es)
			}
		})
	}
}
