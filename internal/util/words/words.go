// Package words holds what daybook's text handling shares: the stop words
// that carry no topic, the split of a text into lower-cased words, their
// stems (the offline embedder's and recall's snippets'), counts with their
// plural ("3 entries") and clipping that keeps UTF-8 whole.
package words

import (
	"strings"
	"sync"
	"unicode"
)

// stop are function words and the words of a question about the past
// ("what was I doing", "who did I meet"): they say nothing of a topic.
// Recall leaves them out of a query's terms.
var stop = set(`a about above after again against all am an and any are as at be
	because been before being below between both but by can could did do does doing done down during
	each else ever few for from further get got had has have having he her here hers herself him himself
	his how i if in into is it its itself just know let me more most my myself no nor not now of off on
	once only or other our ours ourselves out over own please remember same she should so some such tell
	than that the their theirs them themselves then there these they this those through to too under
	until up us very was we were what when where which while who whom why will with would you your yours
	yourself yourselves thing things stuff anything something happen happened`)

// chatter are words a day uses often that still say nothing of its topic:
// fillers of talk and the commonest verbs and adjectives. A summary's
// keywords leave them out beside the stop words.
var chatter = set(`also really like yeah yes okay ok oh haha lol well much many one way going gets getting
	think thought sure maybe lot bit even still though cause im ive dont didnt doesnt cant wont thats
	youre theyre whats lets said say says go goes went come came make made take took see saw want wanted
	good great nice cool right time day today new back first last next need feel`)

// set returns the set of list's words, built on first use: the front
// links this package, and a command that never looks at a word should not
// pay for building its sets at start.
func set(list string) func() map[string]bool {
	return sync.OnceValue(func() map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.Fields(list) {
			m[w] = true
		}
		return m
	})
}

// IsStop reports whether the lower-cased word w is a stop word.
func IsStop(w string) bool { return stop()[w] }

// Lower returns the words of s, lower-cased: runs of letters and digits,
// an apostrophe inside a word dropped ("don't" is "dont").
func Lower(s string) []string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "'", ""), "’", "")
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// Keywords returns the words of s that can name a topic: not stop words,
// at least three characters, not only digits.
func Keywords(s string) []string {
	ws := Lower(s)
	out := ws[:0]
	for _, w := range ws {
		if len(w) >= 3 && !stop()[w] && !chatter()[w] && strings.IndexFunc(w, unicode.IsLetter) >= 0 {
			out = append(out, w)
		}
	}
	return out
}
