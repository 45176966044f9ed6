package offline

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/daybook/daybook/dayfiles"
)

// cleanText turns an item's markdown into plain prose: code blocks, tables,
// HTML and front matter dropped; heading, list and quote markers removed;
// a trailing run of #tags dropped and other #tags written as words; lines
// joined.
func cleanText(kind, text string) string {
	var out []string
	fence := ""
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		switch {
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			fence = t[:3]
			continue
		case t == "", t == "---", strings.HasPrefix(t, "|"), strings.HasPrefix(t, "<"):
			continue
		}
		t = strings.TrimLeft(t, "#> ")
		for _, m := range []string{"- [ ] ", "- [x] ", "- ", "* ", "+ "} {
			t = strings.TrimPrefix(t, m)
		}
		if kind == "text" && len(strings.Fields(t)) < 3 && !strings.ContainsAny(t, ".!?") {
			continue // a heading or a label, not a sentence
		}
		// Each line on its own: its trailing #tags go, links go, and a line
		// that does not end a sentence is ended, so that continuation lines
		// do not run into each other.
		t = strings.TrimSpace(urlPattern().ReplaceAllString(untag(t), ""))
		t = strings.TrimSpace(strings.TrimRight(t, " ,;("))
		if t == "" || linkLabel().MatchString(t) {
			continue
		}
		if r, _ := utf8.DecodeLastRuneInString(t); !strings.ContainsRune(".!?…\")'", r) {
			t = strings.TrimSuffix(t, ":") + "." // "My tips:" heading a list ends as a sentence
		}
		out = append(out, t)
	}
	return strings.Join(out, " ")
}

// urlPattern matches a link; a summary keeps the words, not the addresses
// (the day file keeps them).
var urlPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<?\b(?:https?|ftp)://[^\s>)]+>?`) })

// linkLabel matches what is left of a line that only held a link.
var linkLabel = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?i)(link|url|see|ref|pr|issue)s?\s*:?\s*$`) })

// untag drops the #tags that end a text and writes the others as words.
func untag(s string) string {
	if !strings.Contains(s, "#") {
		return strings.TrimSpace(s)
	}
	fields := strings.Fields(s)
	for len(fields) > 0 {
		last := fields[len(fields)-1]
		if tags := dayfiles.Tags(last); len(tags) == 1 && strings.HasPrefix(last, "#") {
			fields = fields[:len(fields)-1]
			continue
		}
		break
	}
	for i, f := range fields {
		if strings.HasPrefix(f, "#") && len(dayfiles.Tags(f)) == 1 {
			fields[i] = f[1:]
		}
	}
	return strings.Join(fields, " ")
}

// splitSentences splits prose after '.', '!' or '?' followed by a space and
// an upper-case letter, a digit, a quote or a speaker's turn ("elise: …": a
// chat's names are often lower-case); each sentence ends with punctuation
// (a period is added to one without).
func splitSentences(s string) []string { return split(s, false) }

// splitSummary splits a summary's prose, the item of a month or a year, as
// splitSentences does, and also before a bracket and after an aside in
// brackets that is a sentence of its own: a day's summary writes an image's
// caption, a sentence of its own, between two others ("…game on! (shared an
// image: …) Kevin: Enjoy…"); read as one sentence with the next, it made
// the month give Kevin's words to the speaker before the caption. (A day's
// entries are split as before: splitting their captions too moved recall's
// day summaries, and REALTALK's hit@5 by -0.8.)
func splitSummary(s string) []string { return split(s, true) }

func split(s string, asides bool) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if asides && c == ')' && closesAside(s[start:i+1]) {
			// A sentence of its own in brackets: an image's caption that an
			// import wrote before a message's text ("(shared an image: …)
			// I went…") is not part of the next sentence.
			j := i + 1
			if j < len(s) && s[j] == ' ' {
				out = appendSentence(out, s[start:j])
				start, i = j, j
			}
			continue
		}
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		j := i + 1
		for j < len(s) && (s[j] == '.' || s[j] == '!' || s[j] == '?' || s[j] == '"' || s[j] == ')') {
			j++
		}
		if j >= len(s) || s[j] != ' ' {
			continue
		}
		rest := strings.TrimLeft(s[j:], " ")
		next, _ := utf8.DecodeRuneInString(rest)
		if !unicode.IsUpper(next) && !unicode.IsDigit(next) && next != '"' && !(asides && next == '(') && !opensTurn(rest) {
			continue
		}
		if c == '.' && isAbbrev(s[start:i]) {
			continue
		}
		out = appendSentence(out, s[start:j])
		start, i = j, j
	}
	return appendSentence(out, s[start:])
}

// closesAside reports whether s, a sentence so far, is one aside in
// brackets: it opens with '(' and its last ')' closes that one.
func closesAside(s string) bool {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "(") {
		return false
	}
	depth := 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i == len(s)-1
			}
		}
	}
	return false
}

func appendSentence(out []string, s string) []string {
	s = strings.TrimSpace(s)
	if s == "" {
		return out
	}
	if r, _ := utf8.DecodeLastRuneInString(s); !strings.ContainsRune(".!?…\")", r) {
		s += "."
	}
	return append(out, s)
}

// isAbbrev reports whether the text before a period ends in a common
// abbreviation or an initial ("Dr", "e.g", "J").
func isAbbrev(before string) bool {
	i := strings.LastIndexAny(before, " (")
	w := strings.ToLower(before[i+1:])
	switch w {
	case "dr", "mr", "mrs", "ms", "st", "vs", "e.g", "i.e", "etc", "cf", "approx", "no":
		return true
	}
	return utf8.RuneCountInString(w) == 1 && unicode.IsLetter([]rune(w)[0])
}

// opensTurn reports whether s opens with one word of letters and ": ", as a
// speaker's turn in a chat's summary does ("elise: I went…").
func opensTurn(s string) bool {
	i := strings.Index(s, ": ")
	if i <= 0 || i > 30 {
		return false
	}
	for _, r := range s[:i] {
		if !unicode.IsLetter(r) && r != '\'' && r != '’' && r != '-' {
			return false
		}
	}
	return true
}
