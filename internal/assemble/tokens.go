package assemble

import (
	"strings"
	"unicode/utf8"
)

// CharsPerToken is the token estimate: a token is taken to be four
// characters (Unicode code points), rounded up, which is close for English
// prose and markdown under the tokenizers of current models. The estimate is
// subadditive, Tokens(a+b) <= Tokens(a)+Tokens(b), so a block whose pieces
// fit the budget one by one fits it as a whole.
const CharsPerToken = 4

// Tokens estimates the tokens of s.
func Tokens(s string) int {
	return (utf8.RuneCountInString(s) + CharsPerToken - 1) / CharsPerToken
}

// ellipsis ends a text that was cut.
const ellipsis = " …"

// Cut returns s whole when it is at most max tokens; else its longest
// prefix that ends a sentence (or, failing that, a word) and fits in max
// tokens with " …" after it. ok is false when not even one word fits.
func Cut(s string, max int) (cut string, truncated, ok bool) {
	return cutAt(s, max, true)
}

// CutWords is Cut at the last word that fits, sentence or not: a preview
// of a text gives as much of its start as fits.
func CutWords(s string, max int) (cut string, truncated, ok bool) {
	return cutAt(s, max, false)
}

func cutAt(s string, max int, sentence bool) (cut string, truncated, ok bool) {
	if Tokens(s) <= max {
		return s, false, true
	}
	limit := max*CharsPerToken - utf8.RuneCountInString(ellipsis) // runes for the text
	if limit <= 0 {
		return "", true, false
	}
	// The byte offset of the limit-th rune.
	end, n := len(s), 0
	for i := range s {
		if n == limit {
			end = i
			break
		}
		n++
	}
	prefix := s[:end]
	// The last sentence end, if it keeps at least half of what fits.
	best := -1
	for _, sep := range []string{". ", "! ", "? ", ".\n", "\n"} {
		if i := strings.LastIndex(prefix, sep); sentence && i >= 0 && i+1 > best {
			best = i + 1
		}
	}
	if best < len(prefix)/2 {
		best = strings.LastIndexAny(prefix, " \n\t")
	}
	if best <= 0 {
		return "", true, false
	}
	return strings.TrimRight(prefix[:best], " \n\t") + ellipsis, true, true
}
