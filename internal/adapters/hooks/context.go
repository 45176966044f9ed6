package hooks

import (
	"context"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/cites"
)

// Contexter builds context blocks; daybook.Service is one.
type Contexter interface {
	Context(ctx context.Context, req daybook.ContextRequest) (daybook.ContextResponse, error)
}

// SessionContext is the block for the start of a session: the foundation,
// the pyramid of summaries and the recent entries, within budget tokens.
// With s, what it hands over is recorded as what the session holds from
// then on (Session.Start): SessionStart's source (startup, resume, clear,
// compact) starts the session's budget afresh.
func SessionContext(ctx context.Context, c Contexter, budget int, s *Session, source string, now time.Time) (string, error) {
	resp, err := c.Context(ctx, daybook.ContextRequest{Budget: budget})
	if err != nil {
		return "", err
	}
	if s != nil {
		s.Start(source, itemIDs(resp), resp.Tokens, cites.Handed(resp), now)
	}
	return resp.Markdown, nil
}

// PromptContext is the block for a prompt the user submitted, within budget
// tokens, and false when nothing relevant is remembered: a prompt with no
// word of its own (a slash command, "yes", "go on"), or one recall finds
// nothing for (the response's NothingRecalled): one call tells the hook
// both the block and whether to hand it over, where a recall first would
// cost a second drill on every prompt. With s, the block leaves out what
// the session holds already (the foundation, the items of its start block
// and of earlier prompts' blocks), is not handed over when nothing new is
// left in it, and what it hands over is recorded (Session.Prompt).
func PromptContext(ctx context.Context, c Contexter, prompt string, budget int, s *Session) (string, bool, error) {
	if s != nil {
		s.Asked++
	}
	q := Query(prompt)
	if q == "" {
		return "", false, nil
	}
	req := daybook.ContextRequest{Query: q, Budget: budget}
	if s != nil {
		req.Sent = s.Sent
	}
	resp, err := c.Context(ctx, req)
	if err != nil {
		return "", false, err
	}
	if resp.NothingRecalled || len(resp.Items) == 0 {
		return "", false, nil
	}
	if s != nil {
		s.Prompt(itemIDs(resp), resp.Tokens, cites.Handed(resp))
	}
	return resp.Markdown, true, nil
}

// itemIDs are the ids of the items a block placed, "foundation" included.
func itemIDs(resp daybook.ContextResponse) []string {
	ids := make([]string, 0, len(resp.Items))
	for _, it := range resp.Items {
		ids = append(ids, it.ID)
	}
	return ids
}

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
