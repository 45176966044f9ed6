package ollama

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/util/logkey"
)

// Summarizer writes summaries with an Ollama chat model. It implements
// consolidate.Summarizer; its errors match ErrUnavailable when Ollama could
// not do the work, so that WithFallback can hand it to the offline one.
type Summarizer struct {
	client        *api.Client
	model         string
	timeout       time.Duration // one chat request
	contextTokens int
	attempts      int // answers asked for before giving up on a malformed one
	lim           limiter
	log           *slog.Logger
}

// DefaultAttempts is how many answers a summary asks for before it gives up
// on a model that keeps answering with something unusable.
const DefaultAttempts = 3

// NewSummarizer returns a Summarizer for cfg.SummaryModel at cfg.URL.
func NewSummarizer(cfg config.Ollama, log *slog.Logger) (*Summarizer, error) {
	c, err := newClient(cfg)
	if err != nil {
		return nil, err
	}
	if cfg.SummaryModel == "" {
		return nil, fmt.Errorf("ollama.summary_model: empty")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Summarizer{
		client: c, model: cfg.SummaryModel, timeout: cfg.Timeout, contextTokens: cfg.ContextTokens,
		attempts: DefaultAttempts, lim: newLimiter(cfg.Concurrency),
		log: log.With(logkey.System, "ollama", "model", cfg.SummaryModel),
	}, nil
}

// Name is "ollama/" and the model, as the summary's front matter shows it.
func (s *Summarizer) Name() string { return "ollama/" + s.model }

// Summarize returns prose for in of about in.WordLimit words. An input larger
// than the model's context is summarised in parts whose summaries are then
// combined.
func (s *Summarizer) Summarize(ctx context.Context, in consolidate.Input) (string, error) {
	if len(in.Items) == 0 {
		return "", fmt.Errorf("summarizing %s %s: no items", in.Level, in.Period)
	}
	words := in.WordLimit
	if words <= 0 {
		words = defaultWords(in.Level)
	}
	lines := make([]string, len(in.Items))
	for i, it := range in.Items {
		lines[i] = render(it)
	}
	out, err := s.reduce(ctx, in, words, lines, 0)
	if err != nil {
		return "", unavailable(ctx, "summarizing", s.Name(), err)
	}
	return out, nil
}

// maxDepth bounds the combine rounds of a map-reduce.
const maxDepth = 6

// reduce summarises lines in one request when they fit the context, else
// summarises each part that fits and combines the part summaries, round by
// round. depth 0 is the input itself; later rounds hold part summaries.
func (s *Summarizer) reduce(ctx context.Context, in consolidate.Input, words int, lines []string, depth int) (string, error) {
	if depth > maxDepth {
		return "", fmt.Errorf("input still too large after %d rounds of combining", maxDepth)
	}
	chunks := split(lines, s.bodyBudget(words), depth > 0)
	if len(chunks) == 1 {
		body := strings.Join(chunks[0], "\n")
		if depth == 0 {
			return s.ask(ctx, summaryPrompt(in, words, body), words)
		}
		return s.ask(ctx, combinePrompt(in, words, body), words)
	}
	s.log.Debug("input larger than the context: summarizing in parts",
		"level", in.Level, "period", in.Period, "parts", len(chunks), "round", depth)
	parts := make([]string, len(chunks))
	for i, ch := range chunks {
		body := strings.Join(ch, "\n")
		prompt := partPrompt(in, words, i+1, len(chunks), body)
		if depth > 0 {
			prompt = combinePrompt(in, words, body)
		}
		out, err := s.ask(ctx, prompt, words)
		if err != nil {
			return "", fmt.Errorf("part %d of %d: %w", i+1, len(chunks), err)
		}
		parts[i] = fmt.Sprintf("- part %d: %s", i+1, strings.Join(strings.Fields(out), " "))
	}
	return s.reduce(ctx, in, words, parts, depth+1)
}

// estimateTokens is the rough rule for English text: four characters a token.
func estimateTokens(s string) int { return (len(s) + 3) / 4 }

// bodyBudget is how many characters of items fit in one request beside the
// system prompt, the instructions, the answer and one retry (the refused
// answer and the note on it stay in the conversation).
func (s *Summarizer) bodyBudget(words int) int {
	answer := words*4/3 + 64
	reserve := estimateTokens(systemPrompt) + 120 + 2*tooLongFactor*answer
	budget := (s.contextTokens - reserve) * 4
	return max(budget, 1024)
}

// split cuts lines into consecutive chunks of at most budget characters. A
// line longer than the budget is cut at word boundaries. With atLeastTwo, a
// chunk takes a second line even past the budget, so each combining round
// shrinks the list.
func split(lines []string, budget int, atLeastTwo bool) [][]string {
	var chunks [][]string
	var cur []string
	size := 0
	for _, l := range lines {
		for _, piece := range cutLine(l, budget) {
			n := len(piece) + 1
			if len(cur) > 0 && size+n > budget && !(atLeastTwo && len(cur) == 1) {
				chunks = append(chunks, cur)
				cur, size = nil, 0
			}
			cur = append(cur, piece)
			size += n
		}
	}
	if len(cur) > 0 {
		chunks = append(chunks, cur)
	}
	return chunks
}

// cutLine cuts l into pieces of at most budget bytes at spaces.
func cutLine(l string, budget int) []string {
	if len(l) <= budget {
		return []string{l}
	}
	var pieces []string
	var b strings.Builder
	for _, w := range strings.Fields(l) {
		if b.Len() > 0 && b.Len()+1+len(w) > budget {
			pieces = append(pieces, b.String())
			b.Reset()
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	if b.Len() > 0 {
		pieces = append(pieces, b.String())
	}
	return pieces
}

// ask sends one prompt and returns a usable answer, asking again (up to
// s.attempts answers) when the model's answer is refused by checkSummary.
// Failures of the server are not retried: the fallback takes over.
func (s *Summarizer) ask(ctx context.Context, prompt string, words int) (string, error) {
	msgs := []api.Message{{Role: "system", Content: systemPrompt}, {Role: "user", Content: prompt}}
	var refused error
	for attempt := 1; attempt <= s.attempts; attempt++ {
		answer, reason, err := s.chatOnce(ctx, msgs, words)
		if err != nil {
			return "", err
		}
		out, err := checkSummary(answer, words, reason)
		if err == nil {
			return out, nil
		}
		refused = err
		s.log.Debug("answer refused", "attempt", attempt, "reason", err)
		msgs = append(msgs, api.Message{Role: "assistant", Content: answer},
			api.Message{Role: "user", Content: retryPrompt(err.Error(), words)})
	}
	return "", fmt.Errorf("%d answers refused, the last because %w", s.attempts, refused)
}

// chatOnce sends one chat request within the summary timeout.
func (s *Summarizer) chatOnce(ctx context.Context, msgs []api.Message, words int) (string, string, error) {
	if err := s.lim.acquire(ctx); err != nil {
		return "", "", err
	}
	defer s.lim.release()
	ctx, cancel := context.WithTimeoutCause(ctx, s.timeout,
		fmt.Errorf("no answer within ollama.timeout %v", s.timeout))
	defer cancel()
	req := &api.ChatRequest{
		Model:    s.model,
		Messages: msgs,
		Options: map[string]any{
			"num_ctx":     s.contextTokens,
			"num_predict": words*4 + 64, // tokens; past it the answer is cut and refused
			"temperature": 0.2,
		},
	}
	content, reason, err := chat(ctx, s.client, req)
	if err != nil && context.Cause(ctx) != nil && ctx.Err() != nil {
		return "", "", fmt.Errorf("%w (%w)", context.Cause(ctx), err)
	}
	return content, reason, err
}
