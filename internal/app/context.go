package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/assemble"
	"github.com/daybook/daybook/internal/util/words"
	"github.com/daybook/daybook/recall"
)

// FoundationFile is the foundation of every context, under the data dir:
// identity, standing instructions, facts that must never fade.
const FoundationFile = "foundation.md"

// Limits of a context request.
const (
	MaxContextBudget  = 1 << 20 // tokens
	maxFoundationSize = 1 << 20 // bytes
)

// Context assembles an agent's context: foundation.md whole; for a query
// with words of its own (ownWords) whose recall finds entries, the
// evidence: those entries with their neighbours, by day, cited by line;
// the summaries of the evidence's days, the yearly summaries, this year's
// monthly ones and the last days' daily ones (a query's other drill hits
// first); the latest entries verbatim, newest last (with evidence, only in
// what is left and only when the evidence is recent). The budget is kept
// by assemble's token estimate, unless foundation.md alone is over it,
// which the block and Warnings say. What does not fit is chosen by the
// evidence's relevance, then the memory utility score (assemble.Utility).
// Package assemble gathers the candidates (Gather) and builds the block
// (Build).
func (r *Reader) Context(ctx context.Context, req daybook.ContextRequest) (daybook.ContextResponse, error) {
	budget := req.Budget
	if budget == 0 {
		budget = r.cfg.Context.Budget
	}
	if budget < 1 || budget > MaxContextBudget {
		return daybook.ContextResponse{}, userErrf("budget: %d tokens: want 1 to %d", req.Budget, MaxContextBudget)
	}
	query := strings.TrimSpace(req.Query)
	if len(query) > daybook.MaxQuery || !utf8.ValidString(query) {
		return daybook.ContextResponse{}, userErrf("query: want UTF-8 of at most %d bytes", daybook.MaxQuery)
	}
	if len(req.Sent) > daybook.MaxSent {
		return daybook.ContextResponse{}, userErrf("sent: %d ids: want at most %d", len(req.Sent), daybook.MaxSent)
	}
	sent := make(map[string]bool, len(req.Sent))
	for _, id := range req.Sent {
		sent[id] = true
	}
	today := r.Today()
	resp := daybook.ContextResponse{Budget: budget}

	foundation, err := r.readFoundation()
	if err != nil {
		return resp, err
	}
	if sent["foundation"] {
		foundation = ""
	}
	evidence, own := r.ownWords(query)
	limit := 0 // recall's default
	if evidence {
		limit = hitsFor(budget)
	}
	hits, warnings, err := r.contextHits(ctx, query, limit)
	if err != nil {
		return resp, err
	}
	var files assemble.Files // nil: read anew
	if r.files != nil {
		files = r.files
	}
	g, err := assemble.Gather(ctx, assemble.GatherInput{Dir: r.dir, Today: today, Ahead: r.cfg.Window().Ahead,
		Budget: budget, Hits: hits, Evidence: evidence, Words: recall.NewQueryWords(own), Log: r.log, Files: files})
	if err != nil {
		return resp, err
	}
	if len(sent) > 0 {
		// What the session holds already is not handed over again.
		g.Drop(func(c assemble.Candidate) bool { return sent[c.ID] })
	}
	uses := r.use.counts()
	for i := range g.Candidates {
		g.Candidates[i].Uses = uses[g.Candidates[i].ID].N
	}

	title := "# daybook context · " + today.String()
	if query != "" {
		title += fmt.Sprintf("\nQuery: %s", query)
		if len(hits) == 0 {
			title += " (nothing recalled)"
			resp.NothingRecalled = true
		}
	}
	title += "\nIds in [brackets] expand to the full text."
	res := assemble.Build(assemble.Input{
		Title: title, Foundation: foundation, Budget: budget, Today: today,
		SummaryShare: r.cfg.Context.Summary, RecentShare: r.cfg.Context.Recent,
		Candidates: g.Candidates,
	})
	resp.Markdown, resp.Tokens, resp.Omitted = res.Markdown, res.Tokens, res.Omitted
	resp.Warnings = append(append(warnings, g.Warnings...), res.Warnings...)
	for _, p := range res.Placed {
		if p.Index < 0 {
			resp.Items = append(resp.Items, daybook.ContextItem{ID: "foundation", Part: string(assemble.PartFoundation),
				Level: "foundation", Tokens: p.Tokens})
			continue
		}
		c := g.Candidates[p.Index]
		resp.Items = append(resp.Items, daybook.ContextItem{ID: c.ID, Part: string(c.Part), Level: c.Level,
			Tokens: p.Tokens, Utility: p.Utility, Truncated: p.Truncated, Line: evidenceLine(c)})
	}
	resp.RawTokens = g.RawTokens(res.Placed)
	return resp, nil
}

// hitsFor is how many hits a context of budget tokens recalls for a query
// with words of its own: one for every 100 tokens, from recall's usual 10
// to 100. Their neighbours fill the rest: measured on REALTALK, 2.5 times
// as many hits placed no more evidence.
func hitsFor(budget int) int { return min(max(budget/100, 10), 100) }

// ownWords reports whether query has words of its own: a word that is
// not a stop word once its temporal phrase ("last March") is taken out,
// which it returns. Only then are its hits evidence (see
// assemble.GatherInput).
func (r *Reader) ownWords(query string) (bool, string) {
	if query == "" {
		return false, ""
	}
	if _, rest, ok := recall.ParseTemporal(query, r.now(), r.Loc()); ok {
		query = rest
	}
	return len(words.Keywords(query)) > 0, query
}

// contextHits recalls query for a context, limit hits (0: recall's
// default). A recall that fails for daybook's reasons is a warning: the
// context goes on without hits.
func (r *Reader) contextHits(ctx context.Context, query string, limit int) ([]daybook.RecallResult, []string, error) {
	if query == "" {
		return nil, nil, nil
	}
	rr, err := r.recall(ctx, daybook.RecallRequest{Query: query, Limit: limit})
	if IsUserError(err) || ctx.Err() != nil {
		return nil, nil, err
	}
	if err != nil {
		return nil, []string{"recall failed, so the context has no hits for the query: " + err.Error()}, nil
	}
	return rr.Results, nil, nil
}

// readFoundation reads foundation.md; a missing one is "".
func (r *Reader) readFoundation() (string, error) {
	path := filepath.Join(r.dir, FoundationFile)
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading the foundation: %w", err)
	}
	if fi.Size() > maxFoundationSize {
		return "", userErrf("%s: %d bytes is over the %d MiB limit of the foundation", path, fi.Size(), maxFoundationSize>>20)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("reading the foundation: %w", err)
	}
	if !utf8.Valid(data) {
		return "", userErrf("%s: not UTF-8 text", path)
	}
	return strings.TrimSpace(strings.ReplaceAll(string(data), "\r\n", "\n")), nil
}

// evidenceLine is the line an evidence item is cited by, 0 for others.
func evidenceLine(c assemble.Candidate) int {
	if c.Part != assemble.PartEvidence {
		return 0
	}
	return c.Line
}
