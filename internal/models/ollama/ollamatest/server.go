// Package ollamatest runs a fake Ollama server, in the spirit of httptest,
// that speaks Ollama's real HTTP API with the real request and response types
// of github.com/ollama/ollama/api: GET /api/tags, POST /api/chat (NDJSON
// streaming, or one object with "stream": false), POST /api/embed, and
// errors as {"error": "..."} with Ollama's status codes (404 for a model that
// is not pulled). Tests script its answers and faults: delays, cut streams,
// malformed JSON, other dimensions.
package ollamatest

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
)

// ChatReply scripts one answer to /api/chat.
type ChatReply struct {
	Content     string        // the assistant's answer
	DoneReason  string        // "" means "stop"
	Delay       time.Duration // before the first byte; a client that gives up first ends it
	Status      int           // non-zero: answer with this status and {"error": Error}
	Error       string
	StreamError string // streamed: after half the content, an {"error": ...} line (status 200), as when a runner dies
	Cut         bool   // streamed: drop the connection in the middle of a line, with no final message
	Stop        bool   // streamed: end the response cleanly after half the content, with no final message
	Malformed   bool   // answer with a line that is not JSON
	// ToolCalls, when set, are the answer: a message calling them (after
	// Content, if any), as a model with tools answers.
	ToolCalls []api.ToolCall
	// ChunkDelay is waited before each streamed chunk after the first.
	ChunkDelay time.Duration
}

// EmbedReply scripts one answer to /api/embed.
type EmbedReply struct {
	Dim       int // 0: the server's dimension
	Count     int // non-zero: this many vectors whatever the input
	Delay     time.Duration
	Status    int
	Error     string
	Malformed bool
	Zero      bool // all-zero vectors
}

// Server is a fake Ollama server. Its methods are safe for concurrent use.
type Server struct {
	URL string

	life sync.Mutex // guards srv
	srv  *httptest.Server
	mux  *http.ServeMux

	mu     sync.Mutex
	models []string
	dim    int
	chat   func(n int, req *api.ChatRequest) ChatReply
	embed  func(n int, req *api.EmbedRequest) EmbedReply
	calls  map[string]int
	left   int
	chats  []api.ChatRequest
	gens   []api.GenerateRequest
	inputs [][]string
	forget bool // keep no request: see Forget
}

// New starts a server with the models pulled ("llama3.2" is
// "llama3.2:latest") and closes it when the test ends. Embeddings have 8
// dimensions until SetDim; chats answer "The fake model answered." until
// OnChat or Reply.
func New(t testing.TB, models ...string) *Server {
	s := newServer(models)
	s.srv = httptest.NewServer(s.mux)
	s.URL = s.srv.URL
	t.Cleanup(s.Close)
	return s
}

// NewDown is New with the server down: its URL refuses connections, as when
// Ollama is not running, until Up.
func NewDown(t testing.TB, models ...string) *Server {
	s := newServer(models)
	s.URL = DeadURL(t)
	t.Cleanup(s.Close)
	return s
}

// Up starts answering at URL: after NewDown, Down or Close.
func (s *Server) Up(t testing.TB) {
	t.Helper()
	s.life.Lock()
	defer s.life.Unlock()
	if s.srv != nil {
		return
	}
	l, err := net.Listen("tcp", strings.TrimPrefix(s.URL, "http://"))
	if err != nil {
		t.Fatalf("ollamatest: listening at %s again: %v", s.URL, err)
	}
	srv := httptest.NewUnstartedServer(s.mux)
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	s.srv = srv
}

// Down stops the server, as Close does; Up starts it again at the same URL.
func (s *Server) Down() { s.Close() }

func newServer(models []string) *Server {
	s := &Server{models: models, dim: 8, calls: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "Ollama is running") })
	mux.HandleFunc("HEAD /{$}", func(w http.ResponseWriter, r *http.Request) {})
	mux.HandleFunc("GET /api/version", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"version": "0.17.4"})
	})
	mux.HandleFunc("GET /api/tags", s.handleTags)
	mux.HandleFunc("POST /api/chat", s.handleChat)
	mux.HandleFunc("POST /api/generate", s.handleGenerate)
	mux.HandleFunc("POST /api/show", s.handleShow)
	mux.HandleFunc("POST /api/embed", s.handleEmbed)
	s.mux = mux
	return s
}

// Close stops the server; later requests are refused, as when Ollama is down.
func (s *Server) Close() {
	s.life.Lock()
	defer s.life.Unlock()
	if s.srv == nil {
		return
	}
	s.srv.CloseClientConnections()
	s.srv.Close()
	s.srv = nil
}

// SetModels replaces the pulled models.
func (s *Server) SetModels(models ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = models
}

// SetDim sets the dimension of later embeddings.
func (s *Server) SetDim(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dim = n
}

// OnChat scripts the chat answers; n counts chat requests from 1.
func (s *Server) OnChat(fn func(n int, req *api.ChatRequest) ChatReply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.chat = fn
}

// Reply answers the chats with contents in turn, the last one from then on.
func (s *Server) Reply(contents ...string) {
	s.OnChat(func(n int, _ *api.ChatRequest) ChatReply {
		return ChatReply{Content: contents[min(n, len(contents))-1]}
	})
}

// OnEmbed scripts the embedding answers; n counts embed requests from 1.
func (s *Server) OnEmbed(fn func(n int, req *api.EmbedRequest) EmbedReply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.embed = fn
}

// Calls returns how many requests came for path ("/api/chat"), failed ones too.
func (s *Server) Calls(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[path]
}

// Left returns how many chat requests ended because their client went
// away while the server waited (Delay, ChunkDelay).
func (s *Server) Left() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.left
}

func (s *Server) leave() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.left++
}

// Forget stops keeping the requests received (Chats, Generates and the
// embedded inputs give none from then on): a benchmark's thousands of
// turns would otherwise grow the heap it measures.
func (s *Server) Forget() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.forget = true
	s.chats, s.gens, s.inputs = nil, nil, nil
}

// record keeps v in list, unless the server forgets (see Forget); s.mu is held.
func record[T any](s *Server, list *[]T, v T) {
	if !s.forget {
		*list = append(*list, v)
	}
}

// Chats returns the chat requests received, in order.
func (s *Server) Chats() []api.ChatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]api.ChatRequest(nil), s.chats...)
}

// Generates returns the generate requests received, in order.
func (s *Server) Generates() []api.GenerateRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]api.GenerateRequest(nil), s.gens...)
}

// EmbedInputs returns the texts of each embed request, in order.
func (s *Server) EmbedInputs() [][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]string(nil), s.inputs...)
}

// DeadURL returns the URL of a port nothing listens on any more.
func DeadURL(t testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

func (s *Server) count(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls[path]++
	return s.calls[path]
}

// pulled reports whether model is pulled, with Ollama's ":latest" default.
func (s *Server) pulled(model string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range s.models {
		if withTag(m) == withTag(model) {
			return true
		}
	}
	return false
}

func withTag(m string) string {
	if i := strings.LastIndex(m, ":"); i > strings.LastIndex(m, "/") {
		return m
	}
	return m + ":latest"
}

func (s *Server) handleTags(w http.ResponseWriter, r *http.Request) {
	s.count("/api/tags")
	s.mu.Lock()
	resp := api.ListResponse{Models: []api.ListModelResponse{}}
	for i, m := range s.models {
		resp.Models = append(resp.Models, api.ListModelResponse{
			Name: withTag(m), Model: withTag(m), Size: int64(1000 + i),
			ModifiedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Digest: fmt.Sprintf("%064x", i+1),
			Details: api.ModelDetails{Format: "gguf", Family: "llama"},
		})
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, resp)
}

// writeJSON writes v with status, as gin's c.JSON does.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

// wait sleeps d or until the client gives up; it reports whether to go on.
func wait(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}
