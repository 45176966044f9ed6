package hooks

import (
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
func restates(has map[string]bool, words []string) bool {
	n := 0
	for _, w := range words {
		if has[w] {
			n++
		}
	}
	return n >= 2 && (2*n >= len(words) || n >= 4)
}

// Cites returns the ids of the entries the block for prompt handed over
// that answer restates, from the session's record (the newest block for
// that prompt); none when the session handed it nothing.
func (s *Session) Cites(prompt, answer string) []string {
	if s == nil {
		return nil
	}
	key := promptKey(prompt)
	for i := len(s.Turns) - 1; i >= 0; i-- {
		t := s.Turns[i]
		if t.Prompt != key {
			continue
		}
		has := map[string]bool{}
		for _, w := range answerWords(answer) {
			has[w] = true
		}
		var ids []string
		for _, e := range t.Evidence {
			if restates(has, e.Words) {
				ids = append(ids, e.ID)
			}
		}
		return ids
	}
	return nil
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
