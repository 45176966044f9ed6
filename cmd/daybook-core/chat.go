package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/adapters/proxy"
	"github.com/daybook/daybook/internal/cli"
	"github.com/daybook/daybook/internal/spool"
)

func cmdChat() cli.Command {
	return cli.Command{
		Name: "chat", Args: "[--model M] [--upstream URL]",
		Summary: "talk to an Ollama model with daybook's memory, in the terminal",
		Help: `A conversation through the memory proxy's own code (docs/chat.md), in this
process: each turn gets the context block for what you said, the model may
call recall and expand, and your turn and the reply are remembered as chat
entries of today's day file. Lines starting with / are commands:
  /recall Q    what memory holds about Q
  /expand ID   the full text behind an id
  /forget      leave the next turn out of memory (/forget TEXT: this one)
  /quit        end (so do Ctrl-D and Ctrl-C at the prompt), exit 0
Ctrl-C during an answer stops it, which is then not remembered, and
returns to the prompt. After each answer, the ids of the memory it was given are listed. --model is
ollama.summary_model by default; --upstream is proxy.upstream, else ollama.url.
Without an Ollama that answers there, chat says so and exits 1.`,
		Run: runChat,
	}
}

// chatProbeTimeout bounds the check that Ollama answers.
const chatProbeTimeout = 3 * time.Second

func runChat(ctx context.Context, e *cli.Env, args []string) error {
	fs := e.NewFlags("chat")
	model := fs.String("model", "", "the Ollama model to talk to (default ollama.summary_model)")
	upstream := fs.String("upstream", "", "the Ollama server (default proxy.upstream, else ollama.url)")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if err := cli.ExactArgs("chat", pos, 0, "no arguments: type your turns on the standard input"); err != nil {
		return err
	}
	autostart(ctx, e, "chat")
	b, err := e.Backend(ctx)
	if err != nil {
		return err
	}
	cfg := e.Cfg
	if *upstream != "" {
		cfg.Proxy.Upstream = *upstream
	}
	if *model == "" {
		*model = cfg.Ollama.SummaryModel
	}
	if err := ollamaAnswers(ctx, cfg.ProxyUpstream(), *model); err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(e.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	// Both backends are proxy.Memory (proxy.go); Backend returns
	// them as the whole Service.
	mem, ok := b.(proxy.Memory)
	if !ok {
		return fmt.Errorf("chat: %T cannot write a chat's turns", b)
	}
	p, err := proxy.New(mem, proxy.Options{Upstream: cfg.ProxyUpstream(), Budget: cfg.Proxy.Budget,
		Remember: cfg.Proxy.Remember, StateDir: proxyStateDir(e.AbsDir), Spool: spool.New(e.AbsDir), From: spool.FromChat,
		Log: log, MaxBody: int64(cfg.Proxy.MaxBodyMiB) << 20})
	if err != nil {
		return err
	}
	// The proxy is served in this process over in-memory connections: no
	// port that another user could reach.
	client, stop := proxy.InProcess(ctx, p, log)
	defer stop()
	s := &chatSession{e: e, b: b, model: *model, client: client, url: chatURL,
		conv: "cli-" + time.Now().Format("20060102-150405")}
	return s.run(ctx)
}

// chatURL is the in-process proxy's chat path: any host reaches it, and
// localhost passes its Host check.
const chatURL = "http://localhost/api/chat"

// ollamaAnswers checks that an Ollama server answers at url and has model.
func ollamaAnswers(ctx context.Context, url, model string) error {
	ctx, cancel := context.WithTimeout(ctx, chatProbeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(url, "/")+"/api/tags", nil)
	if err != nil {
		return fmt.Errorf("chat: %q is not a URL of an Ollama server (ollama.url, proxy.upstream): see docs/ollama.md", url)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		var ue interface{ Unwrap() error }
		if errors.As(err, &ue) {
			err = ue.Unwrap()
		}
		return fmt.Errorf("chat: no Ollama answers at %s (%v): start one (ollama serve) or point ollama.url at it; see docs/ollama.md", url, err)
	}
	defer resp.Body.Close()
	var list api.ListResponse
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&list) != nil {
		return fmt.Errorf("chat: %s answered %s to /api/tags, not as Ollama does; see docs/ollama.md", url, resp.Status)
	}
	want := model
	if !strings.Contains(want, ":") {
		want += ":latest"
	}
	for _, m := range list.Models {
		if m.Name == want || m.Model == want {
			return nil
		}
	}
	return fmt.Errorf("chat: the Ollama at %s has no model %s: ollama pull %s (or --model); see docs/ollama.md", url, model, model)
}

// chatSession is one terminal conversation.
type chatSession struct {
	e      *cli.Env
	b      daybook.Service
	model  string
	client *http.Client // to the in-process proxy
	url    string
	conv   string
	hist   []api.Message
	// printed says that the answer under way printed some of its text,
	// read once turn returned.
	printed bool
}

func (s *chatSession) run(ctx context.Context) error {
	// Ctrl-C is the chat's while it runs: it stops an answer, or at the
	// prompt ends the chat. (Ignore first, so that the signal is never
	// fatal, and so that it no longer cancels ctx, which SIGTERM still does.)
	intr := make(chan os.Signal, 1)
	signal.Ignore(os.Interrupt)
	signal.Notify(intr, os.Interrupt)
	defer signal.Stop(intr)
	return s.loop(ctx, intr)
}

// loop reads the turns and commands: a line read, an interrupt, or ctx's
// end, whichever comes first. An interrupt at the prompt, and the end of
// the input (Ctrl-D), end the chat; an interrupt during an answer stops it.
func (s *chatSession) loop(ctx context.Context, intr <-chan os.Signal) error {
	out := s.e.Stdout
	fmt.Fprintf(out, "daybook chat with %s; /recall Q, /expand ID, /forget, /quit\n", s.model)
	lines := make(chan string)
	var readErr error
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(s.e.Stdin)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		readErr = sc.Err()
	}()
	forgetNext := false
	for {
		fmt.Fprint(out, "> ")
		var line string
		select {
		case l, ok := <-lines:
			if !ok {
				fmt.Fprintln(out)
				return readErr
			}
			line = strings.TrimSpace(l)
		case <-intr:
			fmt.Fprintln(out)
			return nil
		case <-ctx.Done():
			fmt.Fprintln(out)
			return ctx.Err()
		}
		cmd, arg, _ := strings.Cut(line, " ")
		arg = strings.TrimSpace(arg)
		switch {
		case line == "":
			continue
		case cmd == "/quit" || cmd == "/exit":
			return nil
		case cmd == "/recall":
			s.recall(ctx, arg)
			continue
		case cmd == "/expand":
			s.expand(ctx, arg)
			continue
		case cmd == "/forget" && arg == "":
			forgetNext = true
			fmt.Fprintln(out, "(the next turn is left out of memory)")
			continue
		case cmd == "/forget":
			line, forgetNext = arg, true
		case strings.HasPrefix(line, "/"):
			fmt.Fprintf(out, "unknown command %s: /recall Q, /expand ID, /forget [TEXT], /quit\n", cmd)
			continue
		}
		if err := s.answer(ctx, intr, line, forgetNext); err != nil {
			return err
		}
		forgetNext = false
	}
}

// answer runs one turn until it is done, an interrupt stops it, or ctx
// ends (the error returned). A stopped answer is not remembered: the proxy
// remembers a turn once its answer is whole, and the history keeps only
// whole answers.
func (s *chatSession) answer(ctx context.Context, intr <-chan os.Signal, line string, forget bool) error {
	out := s.e.Stdout
	turnCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	s.printed = false
	go func() { done <- s.turn(turnCtx, line, forget) }()
	var err error
	select {
	case err = <-done:
	case <-intr:
		cancel()
		if err = <-done; err == nil {
			return nil // the answer was whole as the key was pressed
		}
		if s.printed {
			fmt.Fprintln(out)
		}
		fmt.Fprintln(out, "(answer stopped; the partial answer is not remembered)")
		return nil
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		fmt.Fprintf(out, "\nerror: %v\n", err)
	}
	return nil
}

// turn sends one user turn through the proxy and streams the answer.
func (s *chatSession) turn(ctx context.Context, text string, forget bool) error {
	out := s.e.Stdout
	hist := append(s.hist, api.Message{Role: "user", Content: text})
	data, _ := json.Marshal(api.ChatRequest{Model: s.model, Messages: hist})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(data))
	if err != nil {
		return err
	}
	req.Header.Set(proxy.HeaderConversation, s.conv)
	if forget {
		req.Header.Set(proxy.HeaderMemory, "read")
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		var e struct{ Error string }
		if json.Unmarshal(body, &e) == nil && e.Error != "" {
			return errors.New(e.Error)
		}
		return fmt.Errorf("%s: %s", resp.Status, bytes.TrimSpace(body))
	}
	var reply strings.Builder
	dec := json.NewDecoder(resp.Body)
	for {
		var m struct {
			api.ChatResponse
			Error string `json:"error"`
		}
		if err := dec.Decode(&m); err != nil {
			if errors.Is(err, io.EOF) {
				return errors.New("the answer ended before it was done")
			}
			return err
		}
		if m.Error != "" {
			return errors.New(m.Error)
		}
		fmt.Fprint(out, m.Message.Content)
		s.printed = s.printed || m.Message.Content != ""
		reply.WriteString(m.Message.Content)
		if m.Done {
			break
		}
	}
	io.Copy(io.Discard, resp.Body) // to the trailer
	fmt.Fprintln(out)
	s.hist = append(hist, api.Message{Role: "assistant", Content: reply.String()})
	if ids := resp.Header.Get(proxy.HeaderContext); ids != "" {
		fmt.Fprintf(out, "memory: [%s]\n", strings.ReplaceAll(ids, ", ", "] ["))
	}
	for _, w := range append(resp.Header.Values(proxy.HeaderWarning), resp.Trailer.Values(proxy.HeaderWarning)...) {
		fmt.Fprintf(out, "warning: %s\n", w)
	}
	if forget {
		fmt.Fprintln(out, "(not remembered)")
	}
	return nil
}

func (s *chatSession) recall(ctx context.Context, q string) {
	out := s.e.Stdout
	if q == "" {
		fmt.Fprintln(out, "/recall takes a query: /recall garage code")
		return
	}
	resp, err := s.b.Recall(ctx, daybook.RecallRequest{Query: q, Limit: 5})
	if err != nil {
		fmt.Fprintf(out, "error: %v\n", err)
		return
	}
	if len(resp.Results) == 0 {
		fmt.Fprintln(out, "(nothing recalled)")
	}
	for _, r := range resp.Results {
		fmt.Fprintf(out, "[%s] %s\n", r.ID, oneLine(r.Snippet))
	}
}

func (s *chatSession) expand(ctx context.Context, id string) {
	out := s.e.Stdout
	if id == "" {
		fmt.Fprintln(out, "/expand takes an id from /recall or the memory line: /expand day:2026-11-22")
		return
	}
	resp, err := s.b.Expand(ctx, daybook.ExpandRequest{ID: id})
	if err != nil {
		fmt.Fprintf(out, "error: %v\n", err)
		return
	}
	fmt.Fprintf(out, "%s · %s\n%s\n", resp.ID, resp.Path, strings.TrimRight(resp.Text, "\n"))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
