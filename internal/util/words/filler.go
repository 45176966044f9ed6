package words

import (
	"strings"

	porterstemmer "github.com/blevesearch/go-porterstemmer"
)

// reactions are what people say back in a chat rather than what happened:
// greetings, thanks, laughter, agreement and the adjectives of a reaction
// ("that sounds amazing!"). A summary's sentences weigh nothing for them.
// Keywords keeps them (recall routes by Keywords: a change there is a
// change to recall, measured on its own).
var reactions = set(`hi hey hello hiya bye goodbye goodnight night morning thanks thank thx ty welcome
	sorry please wow omg lmao lmfao rofl yay yep yup nope nah aww awww hmm hm um uh ah ahh oops
	haha hahaha hehe lol lolol xd
	absolutely definitely totally exactly indeed agree agreed true totally certainly surely
	actually honestly literally basically probably pretty super kinda sorta gonna wanna gotta
	amazing awesome fun funny lovely wonderful fantastic beautiful cute glad happy excited exciting
	interesting incredible perfect sweet love loved loving hope hoping hopefully enjoy enjoyed
	sounds sound seems looks look glad wish guess mean means meant hear heard`)

// IsFiller reports whether the lower-cased word w says nothing of what
// happened: a stop word, a word of talk (see chatter) or a reaction, or
// laughter however long ("hahaha", "lolll").
func IsFiller(w string) bool {
	return stop()[w] || (chatter()[w] && !tells()[w]) || reactions()[w] || isLaugh(w)
}

// tells are the words of chatter that tell what happened and when: a
// summary keeps them ("went", "made", "today", "new").
var tells = set(`going gets getting said say says go goes went come came make made take took see saw
	want wanted time day today new back first last next`)

func isLaugh(w string) bool {
	if len(w) < 4 || (w[0] != 'h' && w[0] != 'l' && w[0] != 'a' && w[0] != 'e') {
		return false
	}
	for _, unit := range []string{"ha", "he", "lo", "l"} {
		if strings.Trim(w, unit[:1]+unit[len(unit)-1:]) == "" {
			return true
		}
	}
	return strings.Trim(w, "hae") == ""
}

// IsChatter reports whether the lower-cased word w is a word of talk of
// any kind: IsFiller's, and the words of doing and of when that it keeps
// ("went", "today"). None of them is ever a name or a speaker.
func IsChatter(w string) bool { return IsFiller(w) || chatter()[w] }

// Stem returns the Porter stem of the lower-cased word w.
func Stem(w string) string {
	return string(porterstemmer.StemWithoutLowerCasing([]rune(w)))
}
