package ollamatest

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"

	"github.com/ollama/ollama/api"
)

func (s *Server) handleEmbed(w http.ResponseWriter, r *http.Request) {
	n := s.count("/api/embed")
	var req api.EmbedRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	var input []string
	switch in := req.Input.(type) {
	case string:
		input = []string{in}
	case []any:
		for _, v := range in {
			str, ok := v.(string)
			if !ok {
				writeError(w, http.StatusBadRequest, "invalid input type")
				return
			}
			input = append(input, str)
		}
	case nil:
	default:
		writeError(w, http.StatusBadRequest, "invalid input type")
		return
	}
	if req.Model == "" {
		writeError(w, http.StatusBadRequest, "model is required")
		return
	}
	s.mu.Lock()
	record(s, &s.inputs, input)
	script, dim := s.embed, s.dim
	s.mu.Unlock()
	if !s.pulled(req.Model) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("model '%s' not found", req.Model))
		return
	}
	var reply EmbedReply
	if script != nil {
		reply = script(n, &req)
	}
	if !wait(r, reply.Delay) {
		return
	}
	switch {
	case reply.Status != 0:
		writeError(w, reply.Status, reply.Error)
		return
	case reply.Malformed:
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		fmt.Fprintf(w, `{"model":%q,"embeddings":[[0.1,0.2`, req.Model)
		return
	}
	if reply.Dim != 0 {
		dim = max(reply.Dim, 0) // -1: empty vectors
	}
	count := len(input)
	if reply.Count != 0 {
		count = reply.Count
	}
	resp := api.EmbedResponse{Model: req.Model, Embeddings: make([][]float32, count), PromptEvalCount: count}
	for i := range count {
		text := ""
		if i < len(input) {
			text = input[i]
		}
		resp.Embeddings[i] = Vector(text, dim)
		if reply.Zero {
			clear(resp.Embeddings[i])
		}
	}
	writeJSON(w, http.StatusOK, resp)
}

// Vector is the fake model's embedding of text: deterministic, not
// normalised (its length is about 2), so tests can check that clients
// normalise.
func Vector(text string, dim int) []float32 {
	v := make([]float32, dim)
	h := fnv.New64a()
	h.Write([]byte(text))
	x := h.Sum64() | 1
	for i := range v {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		v[i] = float32(int64(x%2001)-1000) / 1000 * 3.4641 // uniform in ±3.46: mean square 4
	}
	return v
}
