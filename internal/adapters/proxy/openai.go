package proxy

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/openai"
)

// handleOpenAIChat serves the OpenAI-compatible /v1/chat/completions as
// Ollama does (its package openai translates), over the upstream's
// /api/chat, so the memory and the tool loop are the same as /api/chat's.
func (p *Proxy) handleOpenAIChat(w http.ResponseWriter, r *http.Request) {
	var oreq openai.ChatCompletionRequest
	if !p.readJSON(w, r, &oreq, writeOpenAIError) {
		return
	}
	req, err := openai.FromChatRequest(oreq)
	if err != nil {
		writeOpenAIError(w, http.StatusBadRequest, err.Error())
		return
	}
	stream := oreq.Stream
	req.Stream = &stream
	p.chat(w, r, req, &openAISink{id: fmt.Sprintf("chatcmpl-%d", rand.IntN(999)), opts: oreq.StreamOptions})
}

func writeOpenAIError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(openai.NewError(status, msg))
}

// openAISink writes the OpenAI dialect: chunks as server-sent events ending
// in "data: [DONE]", or one chat completion.
type openAISink struct {
	id           string
	opts         *openai.StreamOptions
	toolCallSent bool
}

func (*openAISink) contentType(stream bool, _ string) string {
	if stream {
		return "text/event-stream"
	}
	return "application/json"
}

func (s *openAISink) chunk(w io.Writer, _ []byte, r *api.ChatResponse) error {
	c := openai.ToChunk(s.id, *r, s.toolCallSent)
	if len(c.Choices) > 0 && len(c.Choices[0].Delta.ToolCalls) > 0 {
		s.toolCallSent = true
	}
	if err := writeEvent(w, c); err != nil {
		return err
	}
	if !r.Done {
		return nil
	}
	if s.opts != nil && s.opts.IncludeUsage {
		u := openai.ToUsage(*r)
		c.Usage = &u
		c.Choices = []openai.ChunkChoice{}
		if err := writeEvent(w, c); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "data: [DONE]\n\n")
	return err
}

func writeEvent(w io.Writer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "data: %s\n\n", data)
	return err
}

func (s *openAISink) whole(w io.Writer, _ []byte, r *api.ChatResponse) error {
	return json.NewEncoder(w).Encode(openai.ToChatCompletion(s.id, *r))
}

func (*openAISink) fail(w http.ResponseWriter, status int, _ string, body []byte) {
	writeOpenAIError(w, status, errorMessage(body))
}

func (*openAISink) streamError(w io.Writer, msg string) {
	writeEvent(w, openai.NewError(http.StatusInternalServerError, msg))
}

// warn leaves the final chunk as it is: the OpenAI dialect's clients read
// the X-Daybook-Warning trailer.
func (*openAISink) warn(raw []byte, _ *api.ChatResponse, _ string) []byte { return raw }
