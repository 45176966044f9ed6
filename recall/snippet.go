package recall

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/util/words"
)

// snippetLen is about how many bytes of text a snippet shows.
const snippetLen = 240

// queryStems returns the stems of the query's words.
func queryStems(q string) map[string]bool {
	m := map[string]bool{}
	for _, s := range words.Stems(q) {
		m[s] = true
	}
	return m
}

// snippet returns about snippetLen bytes of h's text around its first match,
// on one line, with the matched words in **bold**. The matches are bleve's
// term locations, or for a hit found only by vector, the words whose stems
// are the query's.
func snippet(h index.Hit, terms map[string]bool) string {
	text := h.Text
	spans := h.Spans
	if len(spans) == 0 {
		spans = stemSpans(text, terms)
	}
	spans = outsideAutoTags(text, spans)
	start, end := 0, len(text)
	if len(text) > snippetLen {
		at := 0
		if len(spans) > 0 {
			at = spans[0].Start
		}
		start = max(0, at-snippetLen/3)
		for start > 0 && !utf8.RuneStart(text[start]) {
			start--
		}
		end = min(len(text), start+snippetLen)
		for end < len(text) && !utf8.RuneStart(text[end]) {
			end++
		}
	}
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	pos := start
	for _, s := range spans {
		if s.Start < pos || s.End > end {
			continue
		}
		b.WriteString(text[pos:s.Start])
		b.WriteString("**" + text[s.Start:s.End] + "**")
		pos = s.End
	}
	b.WriteString(text[pos:end])
	if end < len(text) {
		b.WriteString("…")
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// outsideAutoTags drops the spans that fall in an automatic tag
// (#claude-code, #session-…): a label matches no query word, so none is
// shown in bold.
func outsideAutoTags(text string, spans []index.Span) []index.Span {
	if len(spans) == 0 || !strings.Contains(text, "#") {
		return spans
	}
	masked := []byte(text)
	dayfiles.BlankAutoTags(masked)
	out := spans[:0:0]
	for _, s := range spans {
		if s.Start < len(masked) && masked[s.Start] == text[s.Start] {
			out = append(out, s)
		}
	}
	return out
}

// stemSpans finds the words of text whose stems are in terms.
func stemSpans(text string, terms map[string]bool) []index.Span {
	if len(terms) == 0 {
		return nil
	}
	var out []index.Span
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		if !isWord(r) {
			i += n
			continue
		}
		j := i
		for j < len(text) {
			r, n := utf8.DecodeRuneInString(text[j:])
			if !isWord(r) {
				break
			}
			j += n
		}
		if st := words.Stems(text[i:j]); len(st) == 1 && terms[st[0]] {
			out = append(out, index.Span{Start: i, End: j})
		}
		i = j
	}
	return out
}
