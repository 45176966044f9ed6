package consolidate

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Names returns the names text uses, each once, in order: @handles, and
// runs of capitalised words ("Alice", "Alice Smith"): people, places,
// projects and products alike. The first word of a sentence or a line is
// capitalised anyway, so it counts only when the text also uses it in
// mid-sentence ("Met Alice Smith" gives "Alice Smith"; "Alice said so"
// gives nothing unless Alice appears later in the text); weekdays, months
// and a few common words are never names; code spans, URLs, #tags and
// words with digits are skipped. Topics name what an entry is about with
// it; People keeps only the names that are people.
func Names(text string) []string {
	return peopleIn(text, MidSentenceNames(text))
}

// MidSentenceNames returns the capitalised words texts use other than at the
// start of a sentence or a line: the words People accepts at a sentence
// start. A day's summary confirms names across all of its entries.
func MidSentenceNames(texts ...string) map[string]bool {
	mid := map[string]bool{}
	for _, text := range texts {
		addMid(mid, tokenLines(stripCode(text)))
	}
	return mid
}

func addMid(mid map[string]bool, lines [][]token) {
	for _, toks := range lines {
		for _, t := range toks {
			if !t.start && isName(t.word) {
				mid[t.word] = true
			}
		}
	}
}

// peopleIn is Names with the words confirmed as names given.
func peopleIn(text string, mid map[string]bool) []string {
	return namesIn(tokenLines(stripCode(text)), mid)
}

// namesIn is peopleIn of a text's tokens.
func namesIn(lines [][]token, mid map[string]bool) []string {
	var out []string
	seen := map[string]bool{}
	add := func(name string) {
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	for _, toks := range lines {
		var run []string
		runAtStart := false
		flush := func() {
			if len(run) > 0 && runAtStart && !mid[run[0]] {
				run = run[1:]
			}
			if len(run) > 0 {
				add(strings.Join(run, " "))
			}
			run = nil
		}
		for _, t := range toks {
			switch {
			case strings.HasPrefix(t.word, "@") && isHandle(t.word[1:]):
				flush()
				add(t.word)
			case isName(t.word) && !t.url:
				if len(run) == 0 {
					runAtStart = t.start
				}
				run = append(run, t.word)
			default:
				flush()
			}
			if t.trail != "" {
				flush() // "Alice, Bob" are two
			}
		}
		flush()
	}
	return out
}

type token struct {
	word  string // without surrounding punctuation
	trail string // the punctuation after it
	start bool   // first of a sentence or a line
	url   bool
}

// tokenLines splits text into lines of words.
func tokenLines(text string) [][]token {
	var out [][]token
	for _, line := range strings.Split(text, "\n") {
		var toks []token
		start := true
		for _, f := range strings.Fields(line) {
			word := strings.TrimLeft(f, `("'[*_`)
			trimmed := strings.TrimRight(word, `.,;:!?)"'*_]`)
			toks = append(toks, token{word: trimmed, trail: word[len(trimmed):], start: start, url: strings.Contains(f, "://")})
			start = strings.ContainsAny(word[len(trimmed):], ".!?:") || f == "-" || f == "—"
		}
		out = append(out, toks)
	}
	return out
}

// stripCode blanks `code spans` so that nothing in them is taken for a name.
func stripCode(s string) string {
	if !strings.Contains(s, "`") {
		return s
	}
	b := []byte(s)
	in := false
	for i, c := range b {
		if c == '`' {
			in = !in
		}
		if (in || c == '`') && c != '\n' {
			b[i] = ' '
		}
	}
	return string(b)
}

func isHandle(s string) bool {
	s = strings.TrimRight(s, ".-")
	if len(s) < 2 {
		return false
	}
	for _, r := range s {
		if !(r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.' || r == '-')) {
			return false
		}
	}
	return unicode.IsLetter(rune(s[0]))
}

// isName reports whether w is a capitalised word: an upper-case letter, then
// lower-case letters (an apostrophe or hyphen may join parts: O'Brien,
// Jean-Luc), and not a word that is capitalised for other reasons.
func isName(w string) bool {
	first, size := utf8.DecodeRuneInString(w)
	if size == len(w) || !unicode.IsUpper(first) || notNames[strings.ToLower(w)] {
		return false
	}
	prev := first
	for _, r := range w[size:] {
		switch {
		case unicode.IsLower(r):
		case (r == '\'' || r == '’' || r == '-') && unicode.IsLetter(prev):
		case unicode.IsUpper(r) && (prev == '\'' || prev == '’' || prev == '-'):
		default:
			return false
		}
		prev = r
	}
	return unicode.IsLetter(prev)
}

// notNames are capitalised words that are not people; read only.
var notNames = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`monday tuesday wednesday thursday friday saturday sunday
		january february march april june july august september october november december
		i i'm i've i'll i'd ok okay todo done note today tomorrow yesterday the a an and but or
		we he she they it this that these those my our your his her their its also then so
		mr mrs ms dr im ive ill id`) {
		m[w] = true
	}
	return m
}()
