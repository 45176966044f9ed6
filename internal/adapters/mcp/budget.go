package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/assemble"
)

// What a model reads of a tool's answer is its text content: the tools
// whose answers grow with the memory (browse, context, expand) fit it in
// a budget of tokens, estimated as assemble.Tokens does.

// DefaultBrowseBudget is the tokens of browse's answer when the call gives
// no budget: the default 50 day summaries run to some 11,000 tokens.
const DefaultBrowseBudget = 4000

// BrowseOutput is browse's answer: the newest summaries that fit the
// budget, and what was left out.
type BrowseOutput struct {
	Summaries []daybook.SummaryInfo `json:"summaries"`
	// LeftOut counts the older summaries of the listing that did not fit.
	LeftOut int `json:"left_out,omitempty" jsonschema:"older summaries left out to fit budget_tokens"`
	// NextTo is the "to" of the call that lists them.
	NextTo string `json:"next_to,omitempty" jsonschema:"the to argument that lists the summaries left out"`
	Note   string `json:"note,omitempty"`
}

// browseReserve is the tokens kept for the note and the fields around the
// summaries.
const browseReserve = 80

// fitBrowse keeps the newest summaries whose JSON fits budget tokens with
// the rest of the answer. When not even the newest fits whole, its prose is
// cut to fit, with a note that expand gives the whole.
func fitBrowse(all []daybook.SummaryInfo, budget int) BrowseOutput {
	out := BrowseOutput{Summaries: []daybook.SummaryInfo{}}
	room := budget - browseReserve
	for i, s := range all {
		n := jsonTokens(s) + 1 // and a comma
		if n > room {
			if i == 0 {
				// The newest alone is over: its prose, cut, is better than
				// nothing.
				over := n - room
				cut, _, ok := assemble.Cut(s.Prose, max(assemble.Tokens(s.Prose)-over-1, 0))
				if ok {
					s.Prose = cut
					out.Summaries = append(out.Summaries, s)
					out.Note = fmt.Sprintf("the prose of %s is cut to fit budget_tokens %d: expand %s for the whole. ", s.ID, budget, s.ID)
					i++
				}
			}
			if left := all[i:]; len(left) > 0 {
				out.LeftOut = len(left)
				out.NextTo = dayBefore(out.Summaries)
				out.Note += fmt.Sprintf("%d older summaries did not fit budget_tokens %d", len(left), budget)
				if out.NextTo != "" {
					out.Note += fmt.Sprintf(": call browse with to=%s for them, or with a larger budget_tokens", out.NextTo)
				}
			}
			out.Note = strings.TrimSpace(out.Note)
			return out
		}
		room -= n
		out.Summaries = append(out.Summaries, s)
	}
	return out
}

// dayBefore returns the day before the oldest of shown (the last, newest
// first), "" when none is shown or its period is not one.
func dayBefore(shown []daybook.SummaryInfo) string {
	if len(shown) == 0 {
		return ""
	}
	p := shown[len(shown)-1].Period
	var first date.Date
	switch len(p) {
	case 4:
		y, err := strconv.Atoi(p)
		if err != nil {
			return ""
		}
		first = date.YearRange(y).From
	case 7:
		m, err := date.ParseMonth(p)
		if err != nil {
			return ""
		}
		first = m.First()
	default:
		d, err := date.Parse(p)
		if err != nil {
			return ""
		}
		first = d
	}
	return first.AddDays(-1).String()
}

func jsonTokens(v any) int {
	data, err := json.Marshal(v)
	if err != nil {
		return 0
	}
	return assemble.Tokens(string(data))
}

// ContextOutput is the context tool's structured answer: how the budget
// was spent and the ids placed. The markdown block is the text content,
// sent once: within the budget, it is what a model reads.
type ContextOutput struct {
	Tokens    int                   `json:"tokens" jsonschema:"the tokens of the markdown block (the text content), within budget_tokens"`
	Budget    int                   `json:"budget_tokens"`
	Items     []daybook.ContextItem `json:"items"`
	Omitted   int                   `json:"omitted" jsonschema:"candidates that did not fit"`
	Warnings  []string              `json:"warnings,omitempty"`
	RawTokens int                   `json:"raw_tokens,omitempty" jsonschema:"tokens of the raw day files the context covers"`

	text string
}

func (o ContextOutput) contentText() string { return o.text }

// contextWithin returns the backend's block as the text, and the rest
// beside it.
func (t tools) contextWithin(ctx context.Context, in ContextInput) (ContextOutput, error) {
	resp, err := t.b.Context(ctx, daybook.ContextRequest{Query: in.Query, Budget: in.BudgetTokens})
	if err != nil {
		return ContextOutput{}, err
	}
	out := ContextOutput{Tokens: resp.Tokens, Budget: resp.Budget, Items: resp.Items, Omitted: resp.Omitted,
		Warnings: resp.Warnings, RawTokens: resp.RawTokens, text: resp.Markdown}
	if out.Items == nil {
		out.Items = []daybook.ContextItem{}
	}
	return out, nil
}
