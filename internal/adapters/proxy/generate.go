package proxy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook/internal/config"
)

// handleGenerate serves /api/generate with memory: the context block for
// the prompt after the request's own system prompt, and the prompt and
// the response remembered. A raw prompt, or none (a model load), is
// forwarded as it is.
func (p *Proxy) handleGenerate(w http.ResponseWriter, r *http.Request) {
	var req api.GenerateRequest
	if !p.readJSON(w, r, &req, writeError) {
		return
	}
	ctx := r.Context()
	x := p.newExchange(r, &req.Model, []string{"user"}, []string{req.Prompt})
	if req.Raw || strings.TrimSpace(req.Prompt) == "" {
		x.inject, x.remember, x.userAt = false, config.RememberNone, -1
	}
	if block := p.contextBlock(ctx, x); block != "" {
		req.System = strings.TrimSpace(req.System + "\n\n" + block)
	}
	resp, err := p.post(ctx, "/api/generate", &req, r.Header)
	if err != nil {
		if ctx.Err() == nil {
			p.log.Warn("the upstream did not answer", "err", err)
			x.setHeaders(w.Header())
			writeError(w, http.StatusBadGateway, p.upstreamDown(err))
		}
		return
	}
	defer resp.Body.Close()
	h := w.Header()
	x.setHeaders(h)
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		h.Set("Content-Type", ct)
	}
	if resp.StatusCode != http.StatusOK {
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, io.LimitReader(resp.Body, maxErrorBody))
		return
	}
	if req.Stream != nil && !*req.Stream {
		raw, err := io.ReadAll(resp.Body)
		if err != nil {
			return
		}
		var m api.GenerateResponse
		if json.Unmarshal(raw, &m) == nil && m.Done {
			p.finish(ctx, x, m.Response)
			x.setHeaders(h)
		}
		w.WriteHeader(http.StatusOK)
		w.Write(raw)
		return
	}
	h.Set("Trailer", HeaderWarning)
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	br := bufio.NewReaderSize(resp.Body, 64<<10)
	var text strings.Builder
	for {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var m struct {
				api.GenerateResponse
				Error string `json:"error"`
			}
			if json.Unmarshal(line, &m) != nil || m.Error != "" {
				w.Write(line)
				rc.Flush()
				return
			}
			text.WriteString(m.Response)
			if m.Done {
				// The final line waits for the write: "done" means kept.
				if warning := p.finish(ctx, x, text.String()); warning != "" {
					x.setHeaders(h) // as a trailer
					line = ollamaSink{}.warn(line, nil, warning)
				}
				w.Write(line)
				rc.Flush()
				return
			}
			if _, werr := w.Write(line); werr != nil {
				return
			}
			rc.Flush()
		}
		if err != nil {
			if ctx.Err() == nil {
				p.log.Warn("the upstream's stream ended without its final message", "err", err)
				panic(http.ErrAbortHandler)
			}
			return
		}
	}
}
