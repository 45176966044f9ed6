package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"net/url"
	"runtime"
	"strings"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/adapters/mcp"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/spool"
	"github.com/daybook/daybook/internal/util/logkey"
)

// Headers a client may send, and the proxy answers with.
const (
	// HeaderMemory switches memory per request: "off" (no context, no
	// tools, nothing remembered) or "read" (context and tools, nothing
	// remembered). Clients that cannot set headers add SuffixNoMemory to
	// the model's name instead.
	HeaderMemory = "X-Daybook-Memory"
	// HeaderConversation names the conversation a request belongs to;
	// without it the proxy derives one from the model and the first user
	// message.
	HeaderConversation = "X-Daybook-Conversation"
	// HeaderWarning says what went wrong with memory; the chat went on
	// without it.
	HeaderWarning = "X-Daybook-Warning"
	// HeaderContext lists the ids of what the injected context holds,
	// comma-separated: the citations of the memory used.
	HeaderContext = "X-Daybook-Context"
)

// SuffixNoMemory after a model's name ("llama3.2+nomem") is HeaderMemory
// "off" for clients that cannot set headers; the proxy strips it.
const SuffixNoMemory = "+nomem"

// DefaultToolRounds bounds how often one request goes back to the model
// with the results of recall and expand calls.
const DefaultToolRounds = 4

// contextTimeout bounds building the context block: past it, the chat goes
// on without memory.
const contextTimeout = 10 * time.Second

// Memory is what the proxy calls of daybook: the context block for the
// latest user turn, the write of a chat's turns (RememberTurns, and
// Remember for a spooled one), and recall and expand for the model's
// tools. *app.App and the daemon's socket client are each one.
type Memory interface {
	mcp.Reader
	Context(ctx context.Context, req daybook.ContextRequest) (daybook.ContextResponse, error)
	Remember(ctx context.Context, req daybook.RememberRequest) (daybook.RememberResponse, error)
	RememberTurns(ctx context.Context, reqs []daybook.RememberRequest) ([]daybook.RememberResponse, error)
	spool.Writer // ReplayTurns: the spool's turns, each written once
}

// Options configure a Proxy.
type Options struct {
	Upstream string // the Ollama server's URL
	Budget   int    // tokens of the injected context (proxy.budget), at least 1
	Remember string // config.RememberAll, RememberUser or RememberNone; "": all
	// StateDir holds the keys of the turns written or spooled (the data
	// dir's state/proxy); "": kept in memory.
	StateDir string
	// Spool keeps the turns that could not be written, to be written
	// later; nil: kept in memory.
	Spool *spool.Spool
	// From names the proxy in the spool's items: spool.FromProxy (the
	// default) or spool.FromChat.
	From string
	Log  *slog.Logger
	// Transport reaches the upstream; nil: a clone of http.DefaultTransport.
	Transport http.RoundTripper
	// Now is the clock entries are dated by; nil: time.Now.
	Now func() time.Time
	// ToolRounds bounds the tool loop; 0: DefaultToolRounds, -1: no tools.
	ToolRounds int
	// IsUserError tells a request daybook refused from its own failure.
	IsUserError func(error) bool
	// MaxBody bounds the body of a request the proxy reads itself (a chat,
	// a generate); 0: DefaultMaxBody. Passed-through bodies stream.
	MaxBody int64
	// BodyTimeout is how long a client has to send a body the proxy reads,
	// and how long a passed-through body may stall; 0: DefaultBodyTimeout.
	BodyTimeout time.Duration
}

// Proxy is the memory proxy's handler. It is safe for concurrent use.
type Proxy struct {
	mem    Memory
	opts   Options
	log    *slog.Logger
	up     *url.URL
	client *http.Client
	rp     *httputil.ReverseProxy
	mux    *http.ServeMux
	tools  []mcp.ModelTool
	turns  *turns
	// building holds a slot per context being built: as many as there
	// are CPUs, since building one is CPU work, and twenty at once only
	// hold twenty blocks' worth of memory each for the same total time.
	building chan struct{}
}

// New returns a proxy forwarding to opts.Upstream, with memory from mem. It
// writes the turns spooled by an earlier run that could not be written.
func New(mem Memory, opts Options) (*Proxy, error) {
	up, err := url.Parse(opts.Upstream)
	if err != nil || (up.Scheme != "http" && up.Scheme != "https") || up.Host == "" {
		return nil, fmt.Errorf("proxy.upstream: %q is not an http:// or https:// URL", opts.Upstream)
	}
	if opts.Budget < 1 {
		return nil, fmt.Errorf("proxy.budget: %d must be positive", opts.Budget)
	}
	switch opts.Remember {
	case "":
		opts.Remember = config.RememberAll
	case config.RememberAll, config.RememberUser, config.RememberNone:
	default:
		return nil, fmt.Errorf("proxy.remember: %q is not one of all, user, none", opts.Remember)
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.ToolRounds == 0 {
		opts.ToolRounds = DefaultToolRounds
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	if opts.BodyTimeout <= 0 {
		opts.BodyTimeout = DefaultBodyTimeout
	}
	if opts.IsUserError == nil {
		opts.IsUserError = func(error) bool { return false }
	}
	tr := opts.Transport
	if tr == nil {
		tr = http.DefaultTransport.(*http.Transport).Clone()
	}
	log := opts.Log.With(logkey.System, "proxy")
	p := &Proxy{mem: mem, opts: opts, log: log, up: up, client: &http.Client{Transport: tr},
		building: make(chan struct{}, runtime.GOMAXPROCS(0))}
	if opts.From == "" {
		opts.From = spool.FromProxy
	}
	p.turns = newTurns(opts.StateDir, opts.Spool, opts.From, mem, log, opts.IsUserError)
	p.tools = mcp.ModelTools(mem, mcp.Options{Log: log, IsUserError: opts.IsUserError})
	p.rp = &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(up)
			r.Out.Header.Del(HeaderMemory)
			r.Out.Header.Del(HeaderConversation)
		},
		Transport:     tr,
		FlushInterval: -1,
		ErrorLog:      slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if r.Context().Err() != nil {
				return // the client went away
			}
			log.Warn("forwarding to the upstream failed", "path", r.URL.Path, "err", err)
			writeError(w, http.StatusBadGateway, p.upstreamDown(err))
		},
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/chat", p.handleChat)
	mux.HandleFunc("POST /api/generate", p.handleGenerate)
	mux.HandleFunc("POST /v1/chat/completions", p.handleOpenAIChat)
	mux.HandleFunc("/", p.passThrough)
	p.mux = mux
	if err := p.turns.load(); err != nil {
		return nil, err
	}
	if opts.Spool != nil {
		if n, err := opts.Spool.Adopt(context.Background()); err != nil {
			log.Warn("adopting an earlier spool failed", "err", err)
		} else if n > 0 {
			log.Info("adopted the items of an earlier spool", "items", n)
		}
	}
	p.turns.replay(context.Background())
	return p, nil
}

// ServeHTTP answers as Ollama does, with memory, to the programs of this
// machine: a request a web page sent (refuseForeign) gets 403 before
// anything of it is used. It lifts the server's write deadline, if any (a
// model's answer streams for as long as it writes, a pull for as long as it
// downloads), but not the read deadline until the body is in: a body the
// proxy reads must come within BodyTimeout, a passed-through one may not
// stall for longer. A client that goes away still ends the request.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if refuseForeign(w, r) {
		return
	}
	rc := http.NewResponseController(w)
	rc.SetWriteDeadline(time.Time{})
	rc.SetReadDeadline(time.Now().Add(p.opts.BodyTimeout))
	p.mux.ServeHTTP(w, r)
}

// passThrough forwards a request untouched. Its body streams to the
// upstream (a model's blob may be gigabytes), under idleBody's deadline;
// without a body the read deadline is lifted at once.
func (p *Proxy) passThrough(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
		rc.SetReadDeadline(time.Time{})
	} else {
		r.Body = &idleBody{ReadCloser: r.Body, rc: rc, d: p.opts.BodyTimeout}
	}
	p.rp.ServeHTTP(w, r)
}

// Upstream returns the URL the proxy forwards to.
func (p *Proxy) Upstream() string { return p.up.String() }

// Pending returns how many turns wait in the spool to be written.
func (p *Proxy) Pending() int { return p.turns.pending() }

// Flush writes the spooled items it can (every writer's: the spool is
// one).
func (p *Proxy) Flush(ctx context.Context) { p.turns.replay(ctx) }

func (p *Proxy) upstreamDown(err error) string {
	return fmt.Sprintf("daybook proxy: the upstream Ollama at %s did not answer: %v", p.up, unwrapURLError(err))
}

func unwrapURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}

// writeError answers as Ollama does: {"error": msg} with status.
func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

// forwardHeaders copies the client's headers that mean something to the
// upstream (Authorization, User-Agent, ...), without hop-by-hop ones,
// daybook's own and the body's framing, which the new body sets.
func forwardHeaders(dst, src http.Header) {
	for k, vv := range src {
		switch http.CanonicalHeaderKey(k) {
		case "Connection", "Keep-Alive", "Proxy-Connection", "Transfer-Encoding", "Upgrade", "Te", "Trailer",
			"Content-Length", "Accept-Encoding", "Host", HeaderMemory, HeaderConversation:
			continue
		}
		dst[k] = append([]string(nil), vv...)
	}
}

// memoryMode reads the opt-outs of a request: the header, and the model
// suffix, which it strips. It returns whether to inject and what to remember.
func (p *Proxy) memoryMode(r *http.Request, model *string) (inject bool, remember string) {
	inject, remember = true, p.opts.Remember
	if m, ok := strings.CutSuffix(*model, SuffixNoMemory); ok {
		*model = m
		return false, config.RememberNone
	}
	switch strings.ToLower(strings.TrimSpace(r.Header.Get(HeaderMemory))) {
	case "off", "none", "false", "0":
		return false, config.RememberNone
	case "read", "read-only", "readonly":
		return true, config.RememberNone
	}
	return inject, remember
}
