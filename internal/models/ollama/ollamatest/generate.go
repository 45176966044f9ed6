package ollamatest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/ollama/ollama/api"
)

// handleGenerate answers /api/generate as Ollama does, with the chat's
// script (its request holds the prompt as a user message, the system as a
// system one): NDJSON "response" pieces and a final message with "done",
// or one object with "stream": false.
func (s *Server) handleGenerate(w http.ResponseWriter, r *http.Request) {
	n := s.count("/api/generate")
	var req api.GenerateRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if req.Model == "" {
		writeError(w, http.StatusBadRequest, "model is required")
		return
	}
	s.mu.Lock()
	record(s, &s.gens, req)
	script := s.chat
	s.mu.Unlock()
	if !s.pulled(req.Model) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("model '%s' not found", req.Model))
		return
	}
	reply := ChatReply{Content: "The fake model answered."}
	if script != nil {
		as := &api.ChatRequest{Model: req.Model, Stream: req.Stream, Messages: []api.Message{
			{Role: "system", Content: req.System}, {Role: "user", Content: req.Prompt}}}
		reply = script(n, as)
	}
	if !wait(r, reply.Delay) {
		return
	}
	if reply.Status != 0 {
		writeError(w, reply.Status, reply.Error)
		return
	}
	if reply.DoneReason == "" {
		reply.DoneReason = "stop"
	}
	done := func(text string) api.GenerateResponse {
		return api.GenerateResponse{Model: req.Model, CreatedAt: created(), Response: text, Done: true,
			DoneReason: reply.DoneReason, Context: []int{1, 2, 3},
			Metrics: api.Metrics{TotalDuration: 42 * time.Millisecond}}
	}
	if req.Stream != nil && !*req.Stream {
		writeJSON(w, http.StatusOK, done(reply.Content))
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	rc := http.NewResponseController(w)
	enc := json.NewEncoder(w)
	for _, p := range chunks(reply.Content) {
		enc.Encode(api.GenerateResponse{Model: req.Model, CreatedAt: created(), Response: p})
		rc.Flush()
	}
	enc.Encode(done(""))
}

// handleShow answers /api/show for a pulled model.
func (s *Server) handleShow(w http.ResponseWriter, r *http.Request) {
	s.count("/api/show")
	var req api.ShowRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if !s.pulled(req.Model) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("model '%s' not found", req.Model))
		return
	}
	writeJSON(w, http.StatusOK, api.ShowResponse{
		Modelfile: "FROM " + req.Model, Template: "{{ .Prompt }}",
		Details:      api.ModelDetails{Format: "gguf", Family: "llama", ParameterSize: "3.2B", QuantizationLevel: "Q4_K_M"},
		Capabilities: nil, ModifiedAt: created(),
	})
}
