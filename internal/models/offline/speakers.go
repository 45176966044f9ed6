package offline

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/internal/util/words"
)

// A chat imported into daybook has an entry per message, "Kevin: text".
// The speaker's name is not part of what was said: it is cut off each
// sentence and written again only where a speaker's turn begins, so that
// two sentences of Kevin's read "Kevin: A. B.".

// findSpeakers returns the speakers of the items, when they are a chat's:
// when at least half of the items' first sentences open as "Name: " with
// a name that opens two or more of them (consolidate.SpeakersOf at half),
// every name that opens two or more sentences (an item's first, or any
// later one that opens so). A day's items are a chat's messages (a long one
// goes on over many sentences), a month's its days' summaries, each of
// which opens with its first speaker; a turn of one or more sentences is a
// speaker's.
//
// Whether the items are a chat's is told by their first sentences alone: a
// journal's labels open sentences inside its entries ("Numbers: p95 412
// ms", "Next step: ask Julia"), and a month's day summaries hold many of
// them. Counted, they made speakers of the labels, and each label was glued
// to the sentences after it in the month ("Numbers: Fix the alert
// threshold."): sentences no day file holds.
func findSpeakers(texts [][]string) map[string]bool {
	var firsts, opens []string
	for _, ss := range texts {
		for k, s := range ss {
			if k == 0 {
				firsts = append(firsts, s)
			}
			if _, _, ok := consolidate.SpeakerPrefix(s); ok || k == 0 {
				opens = append(opens, s)
			}
		}
	}
	if len(consolidate.SpeakersOf(firsts, 0.5)) == 0 {
		return map[string]bool{}
	}
	return consolidate.SpeakersOf(opens, 0)
}

// cutSpeaker returns the speaker s opens with and the rest of s, when the
// speaker is one of speakers.
func cutSpeaker(s string, speakers map[string]bool) (name, rest string, ok bool) {
	name, rest, ok = consolidate.SpeakerPrefix(s)
	if !ok || !speakers[name] {
		return "", s, false
	}
	return name, rest, true
}

// trimChatter drops the chatter that opens a sentence ("Yes absolutely,
// haha, my walk…" keeps "My walk…") and returns "" for a sentence that is
// all chatter and no content word. It keeps the rest as written.
func trimChatter(s string) string {
	fields := strings.Fields(s)
	k, cut := 0, 0
	for ; k < len(fields); k++ {
		w := strings.ToLower(strings.Trim(fields[k], `.,!?;:"'()…-–—~*`))
		w = noApostrophe.Replace(w)
		if w != "" && !words.IsFiller(w) {
			break
		}
		if strings.ContainsAny(fields[k], ",!?.…") {
			cut = k + 1 // a stretch of chatter ended by punctuation: "Yes absolutely,"
		}
	}
	if k == len(fields) && len(contentTerms(s)) == 0 {
		return ""
	}
	if cut == 0 || cut == len(fields) {
		return s // "I went…": stop words that begin a sentence, not chatter
	}
	rest := strings.Join(fields[cut:], " ")
	r, size := utf8.DecodeRuneInString(rest)
	return string(unicode.ToUpper(r)) + rest[size:]
}

var noApostrophe = strings.NewReplacer("'", "", "’", "")
