package proxy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook/internal/config"
)

// maxErrorBody bounds the upstream error body kept to pass on.
const maxErrorBody = 1 << 20

// chatSink writes a chat's answer to the client in one dialect: Ollama's
// NDJSON or the OpenAI-compatible SSE.
type chatSink interface {
	// contentType is the answer's Content-Type; upstream is the upstream's.
	contentType(stream bool, upstream string) string
	// chunk writes one streamed message; raw is the upstream's line, nil
	// when the proxy changed the message.
	chunk(w io.Writer, raw []byte, r *api.ChatResponse) error
	// whole writes a whole (not streamed) answer.
	whole(w io.Writer, raw []byte, r *api.ChatResponse) error
	// fail answers with an upstream's error, before anything else was
	// written: its status and its body as the dialect says.
	fail(w http.ResponseWriter, status int, contentType string, body []byte)
	// streamError writes an error in the middle of a stream.
	streamError(w io.Writer, msg string)
	// warn returns the final message, raw as the upstream sent it or r,
	// with warning added, or raw when the dialect has no room for it.
	warn(raw []byte, r *api.ChatResponse, warning string) []byte
}

// FieldWarning is the field of a streamed answer's final message (Ollama's
// dialect) that says the turn could not be remembered, and why; the
// X-Daybook-Warning trailer says it in both dialects.
const FieldWarning = "daybook_warning"

func (p *Proxy) handleChat(w http.ResponseWriter, r *http.Request) {
	var req api.ChatRequest
	if !p.readJSON(w, r, &req, writeError) {
		return
	}
	p.chat(w, r, &req, ollamaSink{})
}

// chat runs one chat request with memory and writes the answer through sink.
func (p *Proxy) chat(w http.ResponseWriter, r *http.Request, req *api.ChatRequest, sink chatSink) {
	ctx := r.Context()
	roles, texts := make([]string, len(req.Messages)), make([]string, len(req.Messages))
	for i, m := range req.Messages {
		roles[i], texts[i] = m.Role, m.Content
	}
	x := p.newExchange(r, &req.Model, roles, texts)
	if x.userAt < 0 { // a model load, or a history without a user: nothing to add
		x.inject, x.remember = false, config.RememberNone
	}
	if block := p.contextBlock(ctx, x); block != "" {
		at := 0
		for at < len(req.Messages) && req.Messages[at].Role == "system" {
			at++
		}
		req.Messages = append(req.Messages[:at:at], append([]api.Message{{Role: "system", Content: block}}, req.Messages[at:]...)...)
	}
	ours := p.offerTools(req, x)
	stream := req.Stream == nil || *req.Stream
	run := &chatRun{p: p, w: w, x: x, sink: sink, stream: stream, ours: ours, hdr: r.Header}
	run.do(ctx, req)
}

// chatRun is one chat request on its way through the tool loop.
type chatRun struct {
	p       *Proxy
	w       http.ResponseWriter
	x       *exchange
	sink    chatSink
	stream  bool
	ours    map[string]bool // our tools offered
	started bool            // the answer's header is written
	reply   strings.Builder // the assistant's text the client got
	hdr     http.Header     // the client's headers, forwarded
	// wholeRaw is a whole answer as the upstream sent it.
	wholeRaw []byte
	// finalRaw is a stream's final line as the upstream sent it (nil when
	// the proxy changed it), held back until the turn is written.
	finalRaw   []byte
	toolRounds int // rounds of our tools' calls answered
}

func (c *chatRun) do(ctx context.Context, req *api.ChatRequest) {
	p := c.p
	for round := 0; ; round++ {
		if round == p.opts.ToolRounds-1 || round >= p.opts.ToolRounds {
			c.dropTools(req) // the last round must answer
		}
		resp, err := p.post(ctx, "/api/chat", req, c.hdr)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			p.log.Warn("the upstream did not answer", "err", err)
			c.failUpstream(http.StatusBadGateway, "application/json; charset=utf-8", errorBody(p.upstreamDown(err)))
			return
		}
		if resp.StatusCode != http.StatusOK {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
			resp.Body.Close()
			if len(c.ours) > 0 && resp.StatusCode == http.StatusBadRequest && bytes.Contains(body, []byte("does not support tools")) {
				p.log.Debug("the model takes no tools; asking again without recall and expand", "model", req.Model)
				c.dropTools(req)
				round--
				continue
			}
			c.failUpstream(resp.StatusCode, resp.Header.Get("Content-Type"), body)
			return
		}
		var calls []api.ToolCall
		var final *api.ChatResponse
		var ok bool
		if c.stream {
			calls, final, ok = c.readStream(ctx, resp, round < p.opts.ToolRounds-1)
		} else {
			calls, final, ok = c.readWhole(resp, round < p.opts.ToolRounds-1)
		}
		resp.Body.Close()
		if !ok {
			return
		}
		if len(calls) > 0 {
			c.toolRounds++
			req.Messages = append(req.Messages, api.Message{Role: "assistant", Content: final.Message.Content, ToolCalls: calls})
			req.Messages = append(req.Messages, p.runTools(ctx, calls)...)
			continue
		}
		c.done(ctx, final)
		return
	}
}

// readStream passes the upstream's NDJSON on line by line. It holds back
// the calls of our tools and, when there are some, the round's final
// message, which it returns with the calls; ok is false when the answer
// ended otherwise (an error line, a cut stream, a client gone).
func (c *chatRun) readStream(ctx context.Context, resp *http.Response, toolsAllowed bool) (calls []api.ToolCall, final *api.ChatResponse, ok bool) {
	c.start(resp.Header.Get("Content-Type"))
	rc := http.NewResponseController(c.w)
	br := bufio.NewReaderSize(resp.Body, 64<<10)
	var roundText strings.Builder
	for {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var m struct {
				api.ChatResponse
				Error string `json:"error"`
			}
			if jerr := json.Unmarshal(line, &m); jerr != nil || m.Error != "" {
				// not a message: pass it on as it came and stop, as the
				// client would have seen it from Ollama
				c.w.Write(line)
				rc.Flush()
				return nil, nil, false
			}
			raw := line
			if mine, rest := c.split(m.Message.ToolCalls); len(mine) > 0 && toolsAllowed {
				calls = append(calls, mine...)
				m.Message.ToolCalls = rest
				raw = nil
			}
			if m.Done && len(calls) > 0 {
				final = &m.ChatResponse
				final.Message.Content = roundText.String()
				return calls, final, true
			}
			roundText.WriteString(m.Message.Content)
			if m.Done {
				// Held back until the turn is written (done): a client
				// told the answer is done may count on it being kept.
				c.reply.WriteString(m.Message.Content)
				c.finalRaw = raw
				return nil, &m.ChatResponse, true
			}
			if raw != nil || m.Message.Content != "" || len(m.Message.ToolCalls) > 0 || m.Message.Thinking != "" {
				c.reply.WriteString(m.Message.Content)
				if werr := c.sink.chunk(c.w, raw, &m.ChatResponse); werr != nil {
					return nil, nil, false
				}
				rc.Flush()
			}
		}
		if err != nil {
			if ctx.Err() == nil {
				c.p.log.Warn("the upstream's stream ended without its final message", "err", err)
				panic(http.ErrAbortHandler) // the client sees the stream cut, as it was
			}
			return nil, nil, false
		}
	}
}

// readWhole reads a non-streamed answer.
func (c *chatRun) readWhole(resp *http.Response, toolsAllowed bool) (calls []api.ToolCall, final *api.ChatResponse, ok bool) {
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, nil, false
	}
	var m api.ChatResponse
	if err := json.Unmarshal(raw, &m); err != nil {
		c.start(resp.Header.Get("Content-Type"))
		c.w.Write(raw)
		return nil, nil, false
	}
	if mine, rest := c.split(m.Message.ToolCalls); len(mine) > 0 && toolsAllowed {
		m.Message.ToolCalls = rest
		return mine, &m, true
	}
	c.reply.WriteString(m.Message.Content)
	c.wholeRaw = raw
	return nil, &m, true
}

// done remembers the exchange and, for a whole answer, writes it: after
// the write, so that its warning can go in the header.
//
// A stream's final message goes out after the write too: the turn is in
// its day file and the merge log, synced, before the client reads "done";
// when it could not be written, the final message's daybook_warning
// (Ollama's dialect) and the X-Daybook-Warning trailer say so.
func (c *chatRun) done(ctx context.Context, final *api.ChatResponse) {
	warning := c.p.finish(ctx, c.x, c.reply.String())
	if c.stream {
		c.trailer()
		raw := c.finalRaw
		if warning != "" {
			raw = c.sink.warn(raw, final, warning)
		}
		c.sink.chunk(c.w, raw, final)
		http.NewResponseController(c.w).Flush()
		return
	}
	final.Message.Content = c.reply.String()
	raw := c.wholeRaw
	if c.toolRounds > 0 {
		raw = nil // after rounds of tool calls, the final message is the proxy's
	}
	c.start("application/json; charset=utf-8")
	c.sink.whole(c.w, raw, final)
}

// split returns the calls of our tools and the others.
func (c *chatRun) split(tc []api.ToolCall) (mine, rest []api.ToolCall) {
	for _, t := range tc {
		if c.ours[t.Function.Name] {
			mine = append(mine, t)
		} else {
			rest = append(rest, t)
		}
	}
	return mine, rest
}

// start writes the answer's header once: the memory headers, the type,
// 200.
func (c *chatRun) start(upstreamType string) {
	if c.started {
		return
	}
	c.started = true
	h := c.w.Header()
	c.x.setHeaders(h)
	h.Set("Content-Type", c.sink.contentType(c.stream, upstreamType))
	if c.stream {
		h.Set("Trailer", HeaderWarning)
	}
	c.w.WriteHeader(http.StatusOK)
}

// trailer sends the warnings that came after the header as a trailer.
func (c *chatRun) trailer() {
	if len(c.w.Header().Values(HeaderWarning)) < len(c.x.warnings) {
		c.x.setHeaders(c.w.Header())
	}
}

func (c *chatRun) failUpstream(status int, contentType string, body []byte) {
	if c.started {
		c.sink.streamError(c.w, errorMessage(body))
		return
	}
	c.x.setHeaders(c.w.Header())
	c.sink.fail(c.w, status, contentType, body)
}

// dropTools takes our tools out of the request.
func (c *chatRun) dropTools(req *api.ChatRequest) {
	if len(c.ours) == 0 {
		return
	}
	var keep api.Tools
	for _, t := range req.Tools {
		if !c.ours[t.Function.Name] {
			keep = append(keep, t)
		}
	}
	req.Tools = keep
	c.ours = nil
}

// post sends body to the upstream's path.
func (p *Proxy) post(ctx context.Context, path string, body any, in http.Header) (*http.Response, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, p.up.JoinPath(path).String(), bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	forwardHeaders(hreq.Header, in)
	hreq.Header.Set("Content-Type", "application/json")
	return p.client.Do(hreq)
}

func errorBody(msg string) []byte {
	data, _ := json.Marshal(map[string]string{"error": msg})
	return append(data, '\n')
}

// errorMessage reads Ollama's {"error": "..."}; any other body is the message.
func errorMessage(body []byte) string {
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error != "" {
		return e.Error
	}
	if s := strings.TrimSpace(string(body)); s != "" {
		return s
	}
	return "the upstream answered with an error and no message"
}

// ollamaSink writes Ollama's own dialect: NDJSON lines as the upstream
// sent them.
type ollamaSink struct{}

func (ollamaSink) contentType(stream bool, upstream string) string {
	if upstream != "" {
		return upstream
	}
	if stream {
		return "application/x-ndjson"
	}
	return "application/json; charset=utf-8"
}

func (ollamaSink) chunk(w io.Writer, raw []byte, r *api.ChatResponse) error {
	if raw != nil {
		_, err := w.Write(raw)
		return err
	}
	return json.NewEncoder(w).Encode(r)
}

func (s ollamaSink) whole(w io.Writer, raw []byte, r *api.ChatResponse) error {
	return s.chunk(w, raw, r)
}

func (ollamaSink) fail(w http.ResponseWriter, status int, contentType string, body []byte) {
	if contentType == "" {
		contentType = "application/json; charset=utf-8"
	}
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(status)
	w.Write(body)
}

func (ollamaSink) streamError(w io.Writer, msg string) {
	w.Write(errorBody(msg))
}

func (ollamaSink) warn(raw []byte, r *api.ChatResponse, warning string) []byte {
	if raw == nil {
		data, err := json.Marshal(r)
		if err != nil {
			return nil
		}
		raw = data
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return raw
	}
	w, _ := json.Marshal(warning)
	m[FieldWarning] = w
	data, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return append(data, '\n')
}
