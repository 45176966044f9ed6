package proxy

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"time"
	"unicode"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/entrytext"
	"github.com/daybook/daybook/internal/cites"
	"github.com/daybook/daybook/internal/config"
)

// memoryPreamble leads the injected system message.
const memoryPreamble = "What follows is from the user's long-term memory (daybook): notes, summaries and earlier " +
	"conversations, each with an id in brackets. Use what bears on the conversation and say where it comes from; " +
	"call the recall tool to look for more and expand for the full text behind an id, when they are offered.\n\n"

// maxCited bounds the ids HeaderContext lists.
const maxCited = 64

// exchange is what the proxy knows of one request for memory's sake.
type exchange struct {
	conv     string    // the conversation's id, a tag
	model    string    // the model's name without the opt-out suffix
	inject   bool      // inject context and offer tools
	remember string    // config.RememberAll, RememberUser or RememberNone
	user     string    // the latest user turn's text
	userAt   int       // its index in the history
	replyAt  int       // the reply's index: the history's length
	at       time.Time // when the request came
	warnings []string
	cited    []string      // ids of the items of the injected context
	handed   []cites.Entry // its entries with their words: what a reply that restates one cites
}

// newExchange reads the memory side of a request whose history is msgs
// (role, content pairs).
func (p *Proxy) newExchange(r *http.Request, model *string, roles, texts []string) *exchange {
	inject, remember := p.memoryMode(r, model)
	x := &exchange{model: *model, inject: inject, remember: remember, at: p.opts.Now(), userAt: -1, replyAt: len(roles)}
	first := ""
	for i, role := range roles {
		if role == "user" {
			if first == "" {
				first = texts[i]
			}
			x.user, x.userAt = texts[i], i
		}
	}
	x.conv = conversationTag(r.Header.Get(HeaderConversation), x.model, first)
	return x
}

// conversationTag returns the tag of a conversation: chat/ and the id the
// client gave, made a tag, else a hash of the model and the first user
// message, which every resend of the history repeats.
func conversationTag(given, model, first string) string {
	if id := tagWord(given); id != "" {
		return "chat/" + id
	}
	h := sha256.Sum256([]byte(model + "\x00" + first))
	return "chat/" + hex.EncodeToString(h[:5])
}

// modelTag returns the tag of a model: model/ and its name made a tag,
// without Ollama's default ":latest" (llama3.2:latest is model/llama3-2).
func modelTag(model string) string {
	model = strings.TrimSuffix(model, ":latest")
	if w := tagWord(model); w != "" {
		return "model/" + w
	}
	return "model/unknown"
}

// tagWord lower-cases s and keeps what a tag may hold (letters, digits,
// '-', '_', '/'), the rest as '-'.
func tagWord(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '/':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
		if b.Len() > 64 {
			break
		}
	}
	return strings.Trim(b.String(), "-/")
}

// contextBlock builds the system message for the latest user turn; "" with
// a warning when memory cannot be had.
func (p *Proxy) contextBlock(ctx context.Context, x *exchange) string {
	if !x.inject || strings.TrimSpace(x.user) == "" {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, contextTimeout)
	defer cancel()
	select {
	case p.building <- struct{}{}:
		defer func() { <-p.building }()
	case <-ctx.Done():
		if context.Cause(ctx) != context.Canceled {
			p.log.Warn("no context could be built in time; the chat goes on without memory")
			x.warnings = append(x.warnings, "memory unavailable: too many chats at once")
		}
		return ""
	}
	query := x.user
	if len(query) > daybook.MaxQuery {
		query = query[:daybook.MaxQuery]
		for len(query) > 0 && !utf8Start(query[len(query)-1]) {
			query = query[:len(query)-1]
		}
	}
	resp, err := p.mem.Context(ctx, daybook.ContextRequest{Query: query, Budget: p.opts.Budget})
	if err != nil {
		if ctx.Err() != nil && context.Cause(ctx) == context.Canceled {
			return ""
		}
		p.log.Warn("building the context failed; the chat goes on without memory", "err", err)
		x.warnings = append(x.warnings, "memory unavailable: "+err.Error())
		return ""
	}
	x.warnings = append(x.warnings, resp.Warnings...)
	x.handed = cites.Handed(resp)
	for _, it := range resp.Items {
		if it.ID != "" && it.ID != "foundation" && len(x.cited) < maxCited {
			x.cited = append(x.cited, it.ID)
		}
	}
	if strings.TrimSpace(resp.Markdown) == "" {
		return ""
	}
	return memoryPreamble + resp.Markdown
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// setHeaders puts the exchange's citations and warnings on the answer.
func (x *exchange) setHeaders(h http.Header) {
	if len(x.cited) > 0 {
		h.Set(HeaderContext, strings.Join(x.cited, ", "))
	}
	if x.conv != "" {
		h.Set(HeaderConversation, x.conv)
	}
	h.Del(HeaderWarning)
	for _, w := range x.warnings {
		h.Add(HeaderWarning, headerSafe(w))
	}
}

// headerSafe keeps a warning on one header line.
func headerSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

// finish remembers the exchange's user turn and reply, as their roles and
// p's remember mode say; it returns a warning when one failed.
func (p *Proxy) finish(ctx context.Context, x *exchange, reply string) string {
	if x.remember == config.RememberNone || x.userAt < 0 || strings.TrimSpace(x.user) == "" {
		return ""
	}
	tags := []string{x.conv, modelTag(x.model)}
	ts := turnsOf(turnKey(x.conv, x.userAt, "user", x.user), "user: "+strings.TrimSpace(x.user), tags, x.at)
	if x.remember == config.RememberAll && strings.TrimSpace(reply) != "" {
		text := strings.TrimSuffix(x.model, ":latest") + ": " + strings.TrimSpace(reply)
		if ids := cites.Match(reply, x.handed); len(ids) > 0 {
			// A reply that restates what it was handed names it: recall
			// and the context place it below (entrytext.Cites).
			text += "\n" + entrytext.CitesText(ids)
		}
		ts = append(ts, turnsOf(turnKey(x.conv, x.replyAt, "assistant", reply), text, tags, p.opts.Now())...)
	}
	w := p.turns.remember(ctx, ts)
	if w != "" {
		x.warnings = append(x.warnings, w)
	}
	return w
}

// turnsOf returns the entry of one turn, its text cleaned of NUL bytes and
// bytes that are not UTF-8 (entrytext.CleanText): a turn the day files
// cannot hold is never kept to be written later. A text longer than an
// entry holds is cut by the writer (entrytext.MaxTurnText): the App keeps
// the whole in a rest file beside the day that the entry links to.
func turnsOf(key, text string, tags []string, at time.Time) []turn {
	return []turn{{Key: key, RememberRequest: daybook.RememberRequest{Text: entrytext.CleanText(text), Kind: "chat",
		Tags: tags, At: at.Format(time.RFC3339)}}}
}
