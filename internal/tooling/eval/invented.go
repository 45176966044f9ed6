package eval

import (
	"strings"
	"unicode"

	"github.com/daybook/daybook/consolidate"
)

// A summary may leave out, never invent: every sentence of its prose is
// one its period's day files hold. Sentences tells how many of a prose's
// sentences are held and lists those that are not.

// Held reports whether sentence is in one of texts (the entries and notes
// of its period's day files): its words, in that order, stand in one of
// them. Words, not characters, are compared: a summary drops a list's
// marker and a tag's '#', and ends a line with a period. A sentence that
// opens with a speaker ("Kevin: It was fun.") is held when its rest is in
// an entry that opens with that speaker: a chat's turn goes on over
// several sentences, and the summary names its speaker where it begins.
func Held(sentence string, texts []string) bool {
	w := " " + wordsOf(strings.TrimSuffix(strings.TrimSpace(sentence), "…")) + " "
	if strings.TrimSpace(w) == "" {
		return true
	}
	name, rest, speaker := consolidate.SpeakerPrefix(sentence)
	r := " " + wordsOf(strings.TrimSuffix(rest, "…")) + " "
	for _, t := range texts {
		tw := " " + wordsOf(t) + " "
		if strings.Contains(tw, w) {
			return true
		}
		if speaker && strings.TrimSpace(r) != "" && strings.HasPrefix(tw, " "+wordsOf(name)+" ") && strings.Contains(tw, r) {
			return true
		}
	}
	return false
}

// Invented returns the sentences of prose that none of texts holds (Held),
// and how many sentences prose has.
func Invented(prose string, texts []string) (sentences int, invented []string) {
	for _, s := range proseSentences(prose) {
		if wordsOf(s) == "" {
			continue
		}
		sentences++
		if !Held(s, texts) {
			invented = append(invented, s)
		}
	}
	return sentences, invented
}

// isAside reports whether s is an aside in brackets, after its speaker if
// it has one ("Kevin: (shared an image: a dog)").
func isAside(s string) bool {
	s = strings.TrimSpace(s)
	if _, rest, ok := consolidate.SpeakerPrefix(s); ok {
		s = rest
	}
	return strings.HasPrefix(s, "(") && strings.Count(s, ")") == 1 && strings.HasSuffix(s, ")")
}

// wordsOf returns the lower-cased words of s (runs of letters and digits)
// joined by one space.
func wordsOf(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}

// proseSentences splits prose after '.', '!', '?' or '…' and a space, and
// after an aside in brackets that stands as a sentence of its own ("(shared
// an image: a dog) It's Latte.", "Kevin: (shared an image: a dog) It's
// Latte.").
func proseSentences(prose string) []string {
	var out []string
	start := 0
	for i, r := range prose {
		aside := r == ')' && isAside(prose[start:i+1])
		if !aside && !strings.ContainsRune(".!?…", r) {
			continue
		}
		end := i + len(string(r))
		if end < len(prose) && prose[end] == ' ' {
			out = append(out, strings.TrimSpace(prose[start:end]))
			start = end
		}
	}
	if rest := strings.TrimSpace(prose[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}
