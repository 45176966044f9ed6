package hooks

import (
	"slices"
	"strings"
	"unicode"

	"github.com/daybook/daybook/internal/util/words"
)

// maxCiteWords bounds the words kept of an evidence line.
const maxCiteWords = 40

// citeWords are the words of an evidence line that tell a restatement of
// it: its keywords (no stop words) of four letters or more, and any with a
// digit (a code, a date, an amount), lower-cased, each once; the line's
// time ("10:00") left out.
func citeWords(line string) []string {
	if len(line) > 5 && line[2] == ':' && line[5] == ' ' {
		line = line[6:]
	}
	if strings.HasPrefix(line, "[") { // a kind: [fact]
		if _, rest, ok := strings.Cut(line, "] "); ok {
			line = rest
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, w := range answerWords(line) {
		if seen[w] || len([]rune(w)) < 4 && !strings.ContainsFunc(w, unicode.IsDigit) {
			continue
		}
		seen[w] = true
		out = append(out, w)
		if len(out) == maxCiteWords {
			break
		}
	}
	return out
}

// restates reports whether an answer whose keywords are in has restates
// an entry of words: it holds half of them, or four, and at least two.
func restates(has map[string]bool, words []string) (int, bool) {
	n := 0
	for _, w := range words {
		if has[w] {
			n++
		}
	}
	return n, n >= 2 && (2*n >= len(words) || n >= 4)
}

// maxCites bounds the ids an answer cites.
const maxCites = 5

// Cites returns the ids of the entries the session was handed that answer
// restates, those it shares most words with first; none when the session
// was handed nothing.
func (s *Session) Cites(answer string) []string {
	if s == nil || len(s.Handed) == 0 {
		return nil
	}
	has := map[string]bool{}
	for _, w := range answerWords(answer) {
		has[w] = true
	}
	type cite struct {
		id string
		n  int
	}
	var found []cite
	for _, e := range s.Handed {
		if n, ok := restates(has, e.Words); ok {
			found = append(found, cite{e.ID, n})
		}
	}
	slices.SortStableFunc(found, func(a, b cite) int { return b.n - a.n })
	var ids []string
	for _, c := range found[:min(len(found), maxCites)] {
		ids = append(ids, c.id)
	}
	return ids
}

// answerWords are the keywords of s (words.Keywords, lower-cased) and its
// words with a digit, which Keywords leaves out ("4417").
func answerWords(s string) []string {
	out := words.Keywords(s)
	for _, w := range words.Lower(s) {
		if len(w) >= 2 && strings.ContainsFunc(w, unicode.IsDigit) && !strings.ContainsFunc(w, unicode.IsLetter) {
			out = append(out, w)
		}
	}
	return out
}
