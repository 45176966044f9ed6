package ollama

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// preamble matches an opening that talks to the reader instead of
// summarising: "Sure, here is", "Here's a summary", "Certainly!", "As an AI".
var preamble = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\W*(sure\b|certainly\b|of course\b|okay\b|ok\b|absolutely\b|here(?:'s|’s| is| are)\b|as an ai\b|i (?:can(?:not|'t)?|will|would|have)\b|below is\b|the following is\b)`)
})

// heading matches a markdown ATX heading line.
var heading = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s{0,3}#{1,6}\s`) })

// fence matches a front-matter or code fence line.
var fence = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(?m)^\\s*(?:---+|\\+\\+\\+|```|~~~)\\s*$|^\\s*```") })

// tooLongFactor is how far past the word limit an answer may run: a model
// asked for 120 words that writes 200 is fine, one that writes 400 is not.
const tooLongFactor = 2

// checkSummary returns the cleaned answer, or why it cannot be used.
func checkSummary(answer string, words int, doneReason string) (string, error) {
	s := strings.TrimSpace(answer)
	switch {
	case s == "":
		return "", fmt.Errorf("the answer is empty")
	case doneReason == "length":
		return "", fmt.Errorf("the answer ran past the output limit (done_reason %q)", doneReason)
	case preamble().MatchString(s):
		return "", fmt.Errorf("the answer starts with a preamble (%q) instead of the summary", firstWords(s, 4))
	case heading().MatchString(s):
		return "", fmt.Errorf("the answer holds a markdown heading")
	case fence().MatchString(s):
		return "", fmt.Errorf("the answer holds a front-matter or code fence")
	}
	if n := len(strings.Fields(s)); n > tooLongFactor*words+20 {
		return "", fmt.Errorf("the answer has %d words, far more than the %d asked for", n, words)
	}
	return s, nil
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = f[:n]
	}
	return strings.Join(f, " ")
}
