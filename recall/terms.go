package recall

import (
	"bytes"
	"strings"
	"unicode"

	porterstemmer "github.com/blevesearch/go-porterstemmer"

	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/util/words"
)

// maxTerms is how many distinct terms of a query are searched for.
const maxTerms = 32

// term is a query word and how it is found in lower-cased text: any word that
// starts with key and has the same Porter stem, so "migration" finds
// "migrate" and "migrating", "happy" finds "happiness".
type term struct {
	word  string
	stem  string
	key   []byte
	exact bool             // only the word itself: its stem is too short to trust
	match map[string]match // word seen in the text -> whether it is this term
}

// match is how a word of the text is a term.
type match uint8

const (
	noMatch match = iota
	longer        // a longer word the term starts with ("argon2" for "argon"): it weighs index.ExpandBoost
	same          // the word, or a word of the same stem
)

// queryTerms returns the distinct lower-cased words of q that are not stop
// words, in order, at most maxTerms of them.
func queryTerms(q string) []*term {
	var out []*term
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(q), notWordRune) {
		if words.IsStop(w) || len(out) == maxTerms {
			continue
		}
		if a, ok := aliases[w]; ok {
			w = a
		}
		if seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, newTerm(w))
	}
	return out
}

func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

func newTerm(w string) *term {
	t := &term{word: w, stem: stem(w), match: map[string]match{}}
	k := 0
	for k < len(w) && k < len(t.stem) && w[k] == t.stem[k] {
		k++
	}
	if k < 3 || len(t.stem) < 3 {
		k, t.exact = len(w), true // short or odd stems: the word itself, matched whole
	}
	t.key = []byte(w[:k])
	return t
}

// stem returns the Porter stem of a lower-cased word; words with digits or
// letters outside ASCII are kept as they are.
func stem(w string) string {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return w
		}
	}
	return porterstemmer.StemString(w)
}

// is reports whether word, lower-cased, is the term.
func (t *term) is(word string) bool { return t.matches(word) != noMatch }

// matches tells how word, lower-cased, is the term.
func (t *term) matches(word string) match {
	if word == t.word {
		return same
	}
	m, ok := t.match[word]
	if !ok {
		switch {
		case !t.exact && strings.HasPrefix(word, string(t.key)) && len(word) <= len(t.word)+8 && stem(word) == t.stem:
			m = same
		case index.Longer(t.word, word):
			// A longer word the term starts with is the term ("argon2"),
			// as in an index search (index.Longer), at a lower weight.
			m = longer
		}
		t.match[word] = m
	}
	return m
}

// each calls fn with the offset of each occurrence of t in lower, a
// lower-cased text, that is a whole word which is the term, and how.
func (t *term) each(lower []byte, fn func(at int, m match)) {
	for pos := 0; pos < len(lower); {
		i := bytes.Index(lower[pos:], t.key)
		if i < 0 {
			return
		}
		at := pos + i
		end := at + len(t.key)
		for end < len(lower) && isWordByte(lower[end]) {
			end++
		}
		pos = end
		if at > 0 && isWordByte(lower[at-1]) {
			continue
		}
		if m := t.matches(string(lower[at:end])); m != noMatch {
			fn(at, m)
		}
	}
}

// isWordByte counts bytes of multi-byte UTF-8 letters as word bytes.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// mark puts ** around the words of s that are one of the terms, and cuts a
// long s to a window around the first of them.
func (s *scanner) mark(text string) string {
	var b strings.Builder
	first := -1
	for i := 0; i < len(text); {
		j := i
		for j < len(text) && isWordByte(text[j]) {
			j++
		}
		if j == i {
			b.WriteByte(text[i])
			i++
			continue
		}
		w := text[i:j]
		lw := strings.ToLower(w)
		hit := false
		for _, t := range s.terms {
			if strings.HasPrefix(lw, string(t.key)) && t.is(lw) {
				hit = true
				break
			}
		}
		if hit {
			if first < 0 {
				first = b.Len()
			}
			b.WriteString("**" + w + "**")
		} else {
			b.WriteString(w)
		}
		i = j
	}
	return window(b.String(), first)
}

// window cuts s to about maxSnippet bytes that hold offset at, on word
// boundaries, with "…" where it was cut.
func window(s string, at int) string {
	if len(s) <= maxSnippet {
		return s
	}
	start := max(0, at-maxSnippet/3)
	for start > 0 && s[start-1] != ' ' {
		start--
	}
	end := min(len(s), start+maxSnippet)
	for end < len(s) && s[end] != ' ' {
		end++
	}
	out := s[start:end]
	if start > 0 {
		out = "…" + out
	}
	if end < len(s) {
		out += "…"
	}
	return out
}

// aliases map words whose stems differ from an entry kind's to the kind as
// day files write it: "what did I decide" finds "[decision]".
var aliases = map[string]string{
	"decide": "decision", "decided": "decision", "decides": "decision", "deciding": "decision",
	"to-do": "todo", "todos": "todo",
}
