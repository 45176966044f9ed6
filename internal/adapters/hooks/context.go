package hooks

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/daybook/daybook"
)

// Contexter builds context blocks; daybook.Service is one.
type Contexter interface {
	Context(ctx context.Context, req daybook.ContextRequest) (daybook.ContextResponse, error)
}

// SessionContext is the block for the start of a session: the foundation,
// the pyramid of summaries and the recent entries, within budget tokens.
func SessionContext(ctx context.Context, c Contexter, budget int) (string, error) {
	resp, err := c.Context(ctx, daybook.ContextRequest{Budget: budget})
	if err != nil {
		return "", err
	}
	return resp.Markdown, nil
}

// PromptContext is the block for a prompt the user submitted, within budget
// tokens, and false when nothing relevant is remembered: a prompt with no
// word of its own (a slash command, "yes", "go on"), or one recall finds
// nothing for, which the block's title says (NothingRecalled).
func PromptContext(ctx context.Context, c Contexter, prompt string, budget int) (string, bool, error) {
	q := Query(prompt)
	if q == "" {
		return "", false, nil
	}
	resp, err := c.Context(ctx, daybook.ContextRequest{Query: q, Budget: budget})
	if err != nil {
		return "", false, err
	}
	if strings.Contains(resp.Markdown, NothingRecalled) {
		return "", false, nil
	}
	return resp.Markdown, true, nil
}

// NothingRecalled ends the query line of a context block when recall found
// nothing for the query (app.Context); one call then tells the hook both the
// block and whether to hand it over, where a recall first would cost a
// second drill on every prompt.
const NothingRecalled = " (nothing recalled)\n"

// minQueryWords is how many words of three letters or more a prompt needs
// to be looked up: "yes", "ok go" or "continue" ask nothing of memory.
const minQueryWords = 2

// Query is the recall query for a prompt: its text without system
// reminders, cut to daybook.MaxQuery bytes; "" for a slash command or a prompt
// of fewer than minQueryWords words of three letters or more.
func Query(prompt string) string {
	p := strings.TrimSpace(systemReminder().ReplaceAllString(prompt, ""))
	if strings.HasPrefix(p, "/") || isGenerated(p) {
		return ""
	}
	words := 0
	for _, w := range strings.FieldsFunc(p, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if utf8.RuneCountInString(w) >= 3 {
			words++
		}
	}
	if words < minQueryWords {
		return ""
	}
	if len(p) > daybook.MaxQuery {
		cut := daybook.MaxQuery
		for cut > 0 && !utf8.RuneStart(p[cut]) {
			cut--
		}
		p = p[:cut]
	}
	return p
}
