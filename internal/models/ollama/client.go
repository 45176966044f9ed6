package ollama

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook/internal/config"
)

// newClient builds the official client from the configured URL, never from
// the environment (OLLAMA_HOST is not read). The http.Client has no overall
// timeout: each request gets its own from the config through its context.
func newClient(cfg config.Ollama) (*api.Client, error) {
	u, err := parseURL(cfg.URL)
	if err != nil {
		return nil, err
	}
	return api.NewClient(u, &http.Client{}), nil
}

// parseURL checks ollama.url and names it in the error.
func parseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("ollama.url: %q is not a URL: %v", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("ollama.url: %q is not an http(s) URL with a host, such as http://127.0.0.1:11434", raw)
	}
	return u, nil
}

// sameModel reports whether name, as /api/tags lists it ("llama3.2:latest"),
// is the configured model ("llama3.2" means the latest tag).
func sameModel(name, configured string) bool {
	withTag := func(s string) string {
		if i := strings.LastIndex(s, ":"); i > strings.LastIndex(s, "/") {
			return s
		}
		return s + ":latest"
	}
	return withTag(name) == withTag(configured)
}

// limiter bounds the requests in flight to ollama.concurrency.
type limiter chan struct{}

func newLimiter(n int) limiter {
	if n < 1 {
		n = 1
	}
	return make(limiter, n)
}

func (l limiter) acquire(ctx context.Context) error {
	select {
	case l <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l limiter) release() { <-l }

// chat sends one chat and collects the streamed answer. The stream must end
// with a "done" message: the client stops silently when the connection breaks
// mid-stream, so an answer without one is an error, never a short summary.
func chat(ctx context.Context, c *api.Client, req *api.ChatRequest) (content, doneReason string, err error) {
	var b strings.Builder
	done := false
	err = c.Chat(ctx, req, func(r api.ChatResponse) error {
		if done {
			return fmt.Errorf("message after the final one")
		}
		b.WriteString(r.Message.Content)
		if r.Done {
			done, doneReason = true, r.DoneReason
		}
		return nil
	})
	if err != nil {
		return "", "", err
	}
	if !done {
		return "", "", fmt.Errorf("answer cut off: the stream ended without its final message after %d bytes", b.Len())
	}
	return b.String(), doneReason, nil
}
