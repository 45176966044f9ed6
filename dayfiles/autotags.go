package dayfiles

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/daybook/daybook/dayfiles/entrytext"
)

// The automatic tags: what the loop's own writers (Claude Code's hooks, the
// memory proxy, daybook chat) add to every entry they capture, to say which
// agent, session, project, model or chat it came from. They label and
// filter; they are not words of the entry: the index and recall's word
// matching leave them out (BlankAutoTags), so that "what is the wifi code?"
// does not find every turn tagged #claude-code.
const (
	// TagClaudeCode marks an entry captured from Claude Code (the agent).
	TagClaudeCode = "claude-code"
	// The prefixes of the other automatic tags.
	TagSessionPrefix = "session-" // a Claude Code session: session-1a2b3c4d
	TagProjectPrefix = "project-" // the folder a session ran in
	TagChatPrefix    = "chat/"    // a conversation through the proxy
	TagModelPrefix   = "model/"   // the model that answered through the proxy
)

// AutoTag reports whether tag (lower-cased, without '#') is an automatic
// tag: claude-code, session-…, project-…, chat/… or model/….
func AutoTag(tag string) bool {
	return tag == TagClaudeCode || strings.HasPrefix(tag, TagSessionPrefix) ||
		strings.HasPrefix(tag, TagProjectPrefix) || strings.HasPrefix(tag, TagChatPrefix) ||
		strings.HasPrefix(tag, TagModelPrefix)
}

// Captured reports whether tags hold an automatic tag: the entry was
// written by the loop (a captured agent turn or a proxied chat), not by
// the person.
func Captured(tags []string) bool {
	for _, t := range tags {
		if AutoTag(t) {
			return true
		}
	}
	return false
}

// BlankAutoTags overwrites every automatic #tag of b, and a captured
// answer's cites line (Cites), (as Tags finds a tag:
// '#' and a letter after a space, an opening bracket or the start) with
// spaces, in place: the text keeps its length, so offsets into it stay
// true. Code spans are not told apart here: an automatic tag inside
// backticks is blanked too, which costs a search nothing it should find.
func BlankAutoTags(b []byte) {
	if bytes.Contains(b, []byte(entrytext.CitesPrefix)) {
		// A captured answer's cites line names ids, not words of it.
		for _, m := range entrytext.CitesIndex(b) {
			for p := m[2] - len(entrytext.CitesPrefix); p < m[3]; p++ {
				b[p] = ' '
			}
		}
	}
	for i := 0; ; {
		k := bytes.IndexByte(b[i:], '#')
		if k < 0 {
			return
		}
		i += k
		prev := ' '
		if i > 0 {
			prev, _ = utf8.DecodeLastRune(b[:i])
		}
		j := i + 1
		if !(unicode.IsSpace(prev) || prev == '(' || prev == '[') {
			i = j
			continue
		}
		for j < len(b) {
			q, qs := utf8.DecodeRune(b[j:])
			if !(unicode.IsLetter(q) || unicode.IsDigit(q) || q == '-' || q == '_' || q == '/') {
				break
			}
			j += qs
		}
		if autoTagBytes(b[i+1 : j]) {
			for p := i; p < j; p++ {
				b[p] = ' '
			}
		}
		i = j
	}
}

// autoTagBytes is AutoTag of a tag as written: any case, trailing '-', '_'
// and '/' dropped.
func autoTagBytes(t []byte) bool {
	for len(t) > 0 && (t[len(t)-1] == '-' || t[len(t)-1] == '_' || t[len(t)-1] == '/') {
		t = t[:len(t)-1]
	}
	if len(t) < 5 || len(t) > 200 {
		return false
	}
	return AutoTag(strings.ToLower(string(t)))
}

// WithoutAutoTags returns text with its automatic tags blanked
// (BlankAutoTags): what the index analyses and embeds of an entry.
func WithoutAutoTags(text string) string {
	if !strings.Contains(text, entrytext.CitesPrefix) && (!strings.Contains(text, "#") || !hasAutoTagPrefix(text)) {
		return text
	}
	b := []byte(text)
	BlankAutoTags(b)
	return string(b)
}

// hasAutoTagPrefix is a quick test that text may hold an automatic tag.
func hasAutoTagPrefix(text string) bool {
	lower := strings.ToLower(text)
	for _, p := range []string{"#" + TagClaudeCode, "#" + TagSessionPrefix, "#" + TagProjectPrefix, "#" + TagChatPrefix, "#" + TagModelPrefix} {
		if strings.Contains(lower, p) {
			return true
		}
	}
	return false
}

// Conversation is the conversation an entry of tags belongs to, by its
// automatic tags: a captured Claude Code session's tag (session-…), a
// proxied chat's (chat/…), "captured" for another captured entry, and ""
// for the person's own entries.
func Conversation(tags []string) string {
	conv := ""
	for _, t := range tags {
		if strings.HasPrefix(t, TagSessionPrefix) || strings.HasPrefix(t, TagChatPrefix) {
			return t
		}
		if AutoTag(t) {
			conv = "captured"
		}
	}
	return conv
}
