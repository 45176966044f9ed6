package consolidate

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/daybook/daybook/internal/util/words"
)

// A summary's People are the people its period names, not every
// capitalised word: a chat names cuisines ("Italian"), places ("Houston"),
// foods ("Risotto") and projects ("Quokka") as readily as friends. A name
// is a person when the period shows one acting or addressed:
//
//   - the speaker of a chat's message ("Kevin: …", at the start of at least
//     two entries, see Speakers), or an @handle;
//   - a name after a word that only people follow: "met", "told", "asked",
//     "thanks", "hey", "talked to", "lunch with", a relation ("my friend
//     Kate", "sister Ana");
//   - a name before a verb of people, not after a preposition of place:
//     "Kate said", "Bob thinks" (not "someone from Europe says");
//   - twice over, a weaker sign: "with" where no noun follows ("lunch with
//     Bob.", not "with Italian food"; but also "an internship with
//     Microsoft."), or "Ana and I";
//   - the next names of a list that began with a person ("with Bob, Carol
//     and @dave").
//
// A name shown as a person is one for the whole period: each entry that
// names it counts. Pronouns with an apostrophe ("I'm", "Im"), stop
// and chat words ("Where", "It's", "Thanks") are never names, and the
// first word of a sentence counts only when the period also uses it in
// mid-sentence, as in Names.

// People returns the people text names, each once, in order: Whom over the
// one text.
func People(text string) []string { return NewWhom([]string{text}).Of(0) }

// Whom tells the people of a period from its texts.
type Whom struct {
	mid      map[string]bool // names used in mid-sentence
	score    map[string]int  // evidence that a name is a person's: 2 or more is enough
	speakers map[string]bool
	said     []string    // the speaker of each text, or ""
	lines    [][][]token // each text's tokens, its speaker left out
}

// NewWhom reads texts, the entries of a period, for the names that are
// people.
func NewWhom(texts []string) *Whom {
	w := &Whom{mid: map[string]bool{}, score: map[string]int{}, speakers: Speakers(texts),
		said: make([]string, len(texts)), lines: make([][][]token, len(texts))}
	for i, t := range texts {
		if name, rest, ok := SpeakerPrefix(t); ok && w.speakers[name] {
			w.said[i], t = name, rest
		}
		w.lines[i] = tokenLines(stripCode(t))
		addMid(w.mid, w.lines[i])
	}
	for _, lines := range w.lines {
		w.findPeople(lines)
	}
	return w
}

// Of returns the people of the i-th text, each once, in order: its
// speaker first, then the names the period shows to be people.
func (w *Whom) Of(i int) []string {
	var out []string
	if w.said[i] != "" {
		out = append(out, w.said[i])
	}
	for _, n := range namesIn(w.lines[i], w.mid) {
		n = strings.TrimSuffix(strings.TrimSuffix(n, "'s"), "’s")
		if (strings.HasPrefix(n, "@") || w.score[n] >= 2 || w.speakers[n]) && !contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// findPeople scores the names text shows acting or addressed: 2 for a
// strong sign (a speaker, "met Kate", "Kate said"), 1 for a weak one ("with
// Kate", "Kate and I"), a list's next names as much as its first.
func (w *Whom) findPeople(lines [][]token) {
	for _, toks := range lines {
		listOpen := false // the last name was a person, and a list may go on: ", " or "and"
		listScore := 0
		for i := 0; i < len(toks); i++ {
			t := toks[i]
			if !isName(t.word) || t.url || notPerson(t.word) || (t.start && !w.mid[t.word]) {
				if listOpen && !(t.word == "and" || t.word == "&" || (strings.HasPrefix(t.word, "@") && isHandle(t.word[1:]))) {
					listOpen = false
				}
				continue
			}
			j := i // the run of capitalised words i..j
			for j+1 < len(toks) && toks[j].trail == "" && isName(toks[j+1].word) && !notPerson(toks[j+1].word) && !toks[j+1].url {
				j++
			}
			parts := make([]string, 0, j-i+1)
			for _, x := range toks[i : j+1] {
				parts = append(parts, x.word)
			}
			name := strings.Join(parts, " ")
			name = strings.TrimSuffix(strings.TrimSuffix(name, "'s"), "’s")
			var prev, prev2, next, next2 string
			if i > 0 && toks[i-1].trail == "" {
				prev = strings.ToLower(toks[i-1].word)
				if i > 1 && toks[i-2].trail == "" {
					prev2 = strings.ToLower(toks[i-2].word)
				}
			}
			if toks[j].trail == "" && j+1 < len(toks) {
				next = strings.ToLower(toks[j+1].word)
				if toks[j+1].trail == "" && j+2 < len(toks) {
					next2 = strings.ToLower(toks[j+2].word)
				}
			}
			score := 0
			switch {
			case w.speakers[name] || strongBefore(prev, prev2) || (!places[prev] && peopleVerbs[next]):
				score = 2
			case listOpen && i > 0 && (toks[i-1].trail == "," || prev == "and" || prev == "&"):
				score = listScore
			case weakBefore(prev, next, toks[j].trail) || (!places[prev] && next == "and" && (next2 == "i" || next2 == "me")):
				score = 1
			}
			w.score[name] += score
			listOpen, listScore = score > 0, score
			if toks[j].trail != "" && toks[j].trail != "," {
				listOpen = false
			}
			i = j
		}
	}
}

// strongBefore reports whether a name after prev2 prev is a person's: "met
// Kate", "thanks Kate", "my friend Kate", "talked to Kate", "lunch with
// Kate".
func strongBefore(prev, prev2 string) bool {
	return greetsOrActs[prev] || relations[prev] || (prev == "to" && talks[prev2]) || (prev == "with" && together[prev2])
}

// weakBefore reports whether a name after prev, and before next (or the
// punctuation trail), may be a person's: "with Kate" where the clause ends
// or goes on with "and", a preposition or a time ("lunch with Bob, …",
// "with Kate yesterday"; not "with Calculus the first year"). Things come
// "with" as readily ("an internship with Microsoft."): it takes two.
func weakBefore(prev, next, trail string) bool {
	return prev == "with" && (trail != "" || next == "" || afterWith[next])
}

// notPerson reports whether the capitalised word w is never a person's
// name: a pronoun with or without its apostrophe ("I'm", "Im"), a stop or
// chat word ("Where", "It's", "Thanks").
func notPerson(w string) bool {
	l := strings.ToLower(strings.ReplaceAll(w, "’", "'"))
	if strings.HasPrefix(l, "i'") {
		return true
	}
	l = strings.ReplaceAll(l, "'", "")
	return words.IsChatter(l) || notNames[l] || peoples[l]
}

func set(list string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(list) {
		m[w] = true
	}
	return m
}

var (
	greetsOrActs = set(`met meet meeting told tell telling asked ask asking call calling texted text texting
		emailed email emailing messaged message thank thanked thanks invited invite inviting helped help
		hugged hug hi hey hello dear bye congrats congratulations ping pinged cc married marry dating`)
	relations = set(`friend friends brother brothers sister sisters mom mum mother dad father son daughter
		wife husband boyfriend girlfriend partner cousin uncle aunt auntie grandma grandpa grandmother
		grandfather granny boss colleague coworker roommate teacher coach manager neighbor neighbour buddy
		nephew niece bestie fiance fiancee fiancé fiancée`)
	talks = set(`talked talk talking spoke speak speaking wrote write writing sent send sending replied reply
		listened listen listening introduced gave give giving lent showed show explained mentioned said
		say married engaged`)
	together = set(`lunch dinner breakfast brunch coffee drinks call calls meeting meetings meet met chat
		chatted sync catchup talk talked spoke speak date hangout up session interview facetime 1:1`)
	afterWith = set(`and at in on for about over to from yesterday today tonight tomorrow last this again
		later soon earlier`)
	places = set(`in to from at near into around across through of for on by`)
	// peoples are the adjectives of nations, regions and faiths: capitalised
	// in English, and never a person ("Italian food", "my aunt Islamic…").
	peoples = set(`american british english french german italian spanish portuguese dutch greek turkish
		russian ukrainian polish swedish norwegian danish finnish irish scottish welsh swiss austrian
		belgian czech hungarian romanian chinese japanese korean thai vietnamese indian pakistani
		bangladeshi filipino indonesian malaysian mexican canadian brazilian argentinian argentine chilean
		peruvian colombian cuban jamaican caribbean cajun creole african nigerian kenyan egyptian moroccan
		ethiopian lebanese persian iranian iraqi israeli arab arabic saudi australian european asian latin
		hispanic latino latina mediterranean nordic scandinavian islamic muslim christian catholic jewish
		hindu buddhist texan californian hawaiian tex-mex`)
	peopleVerbs = set(`said says told tells asked asks replied answered agreed suggested mentioned explained
		recommended invited joined visited texted wrote thinks thought wants wanted likes liked
		loves loved knows knew came left arrived lives lived works worked helped gave sent met laughed
		cried smiled feels felt`)
)

// Speakers returns the speakers of texts, the entries of a period, when
// they are a chat's messages: SpeakersOf(texts, 0.5).
func Speakers(texts []string) map[string]bool { return SpeakersOf(texts, 0.5) }

// SpeakersOf returns the names that open at least two of texts as "Name: "
// (SpeakerPrefix), when the texts that open so are at least share of them:
// a chat imported an entry a message opens each with its speaker, a
// journal opens a few lines with a label ("Weather: fog", "Incident: …").
func SpeakersOf(texts []string, share float64) map[string]bool {
	n := map[string]int{}
	for _, t := range texts {
		if name, _, ok := SpeakerPrefix(t); ok {
			n[name]++
		}
	}
	out := map[string]bool{}
	said := 0
	for name, c := range n {
		if c >= 2 {
			out[name] = true
			said += c
		}
	}
	if float64(said) < share*float64(len(texts)) {
		return map[string]bool{}
	}
	return out
}

// SpeakerPrefix splits "Name: rest" when Name can be a speaker's: one to
// three words of letters, the first of any case (chat names are often
// lower-case), the others capitalised, no stop or chat word, and no label
// ("Note:", "Todo:", "Link:").
func SpeakerPrefix(s string) (name, rest string, ok bool) {
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
		if lw := strings.ToLower(f); words.IsChatter(lw) || labels[lw] {
			return "", s, false
		}
	}
	return name, rest, true
}

// labels are words that open a line as "Label: text" and are no speaker.
var labels = set(`note notes todo update idea ideas question questions answer link links url see ref
	reminder tip tips warning fyi ps re edit summary decision decisions fact facts event events step steps
	status result results goal goals plan plans source via agenda action actions topic topics issue issues
	problem solution fix bug context background why outcome learned lesson lessons pros cons tldr reason
	reasons`)
