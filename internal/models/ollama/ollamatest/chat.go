package ollamatest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/ollama/ollama/api"
)

func (s *Server) handleChat(w http.ResponseWriter, r *http.Request) {
	n := s.count("/api/chat")
	var req api.ChatRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if req.Model == "" {
		writeError(w, http.StatusBadRequest, "model is required")
		return
	}
	s.mu.Lock()
	record(s, &s.chats, req)
	script := s.chat
	s.mu.Unlock()
	if !s.pulled(req.Model) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("model '%s' not found", req.Model))
		return
	}
	reply := ChatReply{Content: "The fake model answered."}
	if script != nil {
		reply = script(n, &req)
	}
	if !wait(r, reply.Delay) {
		s.leave()
		return
	}
	if reply.Status != 0 {
		writeError(w, reply.Status, reply.Error)
		return
	}
	if reply.DoneReason == "" {
		reply.DoneReason = "stop"
	}
	stream := req.Stream == nil || *req.Stream
	if len(reply.ToolCalls) > 0 {
		s.toolCalls(w, req.Model, reply, stream)
		return
	}
	if !stream {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		if reply.Malformed {
			fmt.Fprintf(w, `{"model":%q,"message":{"role":"assistant","content":"%s`, req.Model, reply.Content[:len(reply.Content)/2])
			return
		}
		json.NewEncoder(w).Encode(final(req.Model, reply.Content, reply.DoneReason))
		return
	}
	s.stream(w, r, req.Model, reply)
}

// stream writes the answer as Ollama does: a message per few words, then a
// final message with "done": true, the reason and the metrics.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, model string, reply ChatReply) {
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	enc := json.NewEncoder(w)
	pieces := chunks(reply.Content)
	for i, p := range pieces {
		if i > 0 && !wait(r, reply.ChunkDelay) {
			s.leave()
			return
		}
		if i == len(pieces)/2 {
			switch {
			case reply.Malformed:
				fmt.Fprintf(w, "{\"model\":%q,\"message\":{\"content\":\n", model)
				rc.Flush()
				return
			case reply.StreamError != "":
				enc.Encode(map[string]string{"error": reply.StreamError})
				rc.Flush()
				return
			case reply.Stop:
				return
			case reply.Cut:
				fmt.Fprintf(w, `{"model":%q,"created_at":"2026-01-02T03:04:05Z","message":{"role":"assistant","con`, model)
				rc.Flush()
				if conn, _, err := rc.Hijack(); err == nil {
					conn.Close()
				}
				return
			}
		}
		enc.Encode(api.ChatResponse{
			Model: model, CreatedAt: created(),
			Message: api.Message{Role: "assistant", Content: p},
		})
		rc.Flush()
	}
	enc.Encode(final(model, "", reply.DoneReason))
	rc.Flush()
}

// toolCalls answers with a message calling reply.ToolCalls, as Ollama
// does: streamed, the content's chunks, a chunk with the calls, and the
// final message.
func (s *Server) toolCalls(w http.ResponseWriter, model string, reply ChatReply, stream bool) {
	if !stream {
		resp := final(model, reply.Content, reply.DoneReason)
		resp.Message.ToolCalls = reply.ToolCalls
		writeJSON(w, http.StatusOK, resp)
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	enc := json.NewEncoder(w)
	if reply.Content != "" {
		enc.Encode(api.ChatResponse{Model: model, CreatedAt: created(), Message: api.Message{Role: "assistant", Content: reply.Content}})
	}
	enc.Encode(api.ChatResponse{Model: model, CreatedAt: created(),
		Message: api.Message{Role: "assistant", ToolCalls: reply.ToolCalls}})
	enc.Encode(final(model, "", reply.DoneReason))
}

// ToolCall returns a call of the tool name with args, as a model makes it.
func ToolCall(name string, args map[string]any) api.ToolCall {
	a := api.NewToolCallFunctionArguments()
	for k, v := range args {
		a.Set(k, v)
	}
	return api.ToolCall{ID: "call_" + name, Function: api.ToolCallFunction{Name: name, Arguments: a}}
}

func final(model, content, reason string) api.ChatResponse {
	return api.ChatResponse{
		Model: model, CreatedAt: created(),
		Message: api.Message{Role: "assistant", Content: content},
		Done:    true, DoneReason: reason,
		Metrics: api.Metrics{TotalDuration: 42 * time.Millisecond, EvalCount: len(strings.Fields(content))},
	}
}

func created() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }

// chunks cuts s into pieces of three words, keeping the spaces, as tokens
// stream; an empty answer is one empty piece.
func chunks(s string) []string {
	var out []string
	words := strings.SplitAfter(s, " ")
	for i := 0; i < len(words); i += 3 {
		out = append(out, strings.Join(words[i:min(i+3, len(words))], ""))
	}
	if len(out) == 0 {
		out = []string{""}
	}
	return out
}
