package offline

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/daybook/daybook/words"
)

// A chat imported into daybook has an entry per message, "Kevin: text".
// The speaker's name is not part of what was said: it is cut off each
// sentence and written again only where a speaker's turn begins, so that
// two sentences of Kevin's read "Kevin: A. B.".

// findSpeakers returns the names that open at least two sentences of the
// items as "Name: ": one to three words, the first of any case (chat
// names are often lower-case), the others capitalised, no stop or
// chatter word, and not a label ("Note:", "Todo:", "Link:").
func findSpeakers(texts [][]string) map[string]bool {
	n := map[string]int{}
	for _, ss := range texts {
		for _, s := range ss {
			if name, _, ok := speakerPrefix(s); ok {
				n[name]++
			}
		}
	}
	out := map[string]bool{}
	for name, c := range n {
		if c >= 2 {
			out[name] = true
		}
	}
	return out
}

// cutSpeaker returns the speaker s opens with and the rest of s, when the
// speaker is one of speakers.
func cutSpeaker(s string, speakers map[string]bool) (name, rest string, ok bool) {
	name, rest, ok = speakerPrefix(s)
	if !ok || !speakers[name] {
		return "", s, false
	}
	return name, rest, true
}

// speakerPrefix splits "Name: rest" when Name can be a speaker's name.
func speakerPrefix(s string) (name, rest string, ok bool) {
	i := strings.Index(s, ": ")
	if i <= 0 || i > 40 {
		return "", s, false
	}
	name, rest = s[:i], strings.TrimSpace(s[i+2:])
	fields := strings.Fields(name)
	if len(fields) == 0 || len(fields) > 3 || rest == "" {
		return "", s, false
	}
	for k, f := range fields {
		first, _ := utf8.DecodeRuneInString(f)
		if k > 0 && !unicode.IsUpper(first) {
			return "", s, false
		}
		for _, r := range f {
			if !unicode.IsLetter(r) && r != '\'' && r != '’' && r != '-' && r != '.' {
				return "", s, false
			}
		}
		if lw := strings.ToLower(f); words.IsFiller(lw) || labels[lw] {
			return "", s, false
		}
	}
	return name, rest, true
}

// labels are words that open a line as "Label: text" and are no speaker.
var labels = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`note notes todo update idea ideas question questions answer link links url
		see ref reminder tip tips warning fyi ps re edit summary decision decisions fact facts event events
		step steps status result results goal goals plan plans source via agenda action actions topic topics
		issue issues problem solution fix bug context background why outcome learned lesson lessons
		pros cons tldr reason reasons`) {
		m[w] = true
	}
	return m
}()

// trimChatter drops the chatter that opens a sentence ("Yes absolutely,
// haha, my walk…" keeps "My walk…") and returns "" for a sentence that is
// all chatter and no content word. It keeps the rest as written.
func trimChatter(s string) string {
	fields := strings.Fields(s)
	k, cut := 0, 0
	for ; k < len(fields); k++ {
		w := strings.ToLower(strings.Trim(fields[k], `.,!?;:"'()…-–—~*`))
		w = strings.NewReplacer("'", "", "’", "").Replace(w)
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
