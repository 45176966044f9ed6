package recall

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/daybook/daybook/internal/util/words"
)

// A memory keeps every version of a fact that changed: "The garage door
// code is 4417." in March, "Changed the garage door code to 5521." in
// June, and a captured agent's answer "The garage door code is 4417." in
// September. Recall scores them alike (they share the query's words), so
// the list, and the context block built from it, would lead with whichever
// is first by chance. Supersede finds such changes offline, by the words
// alone:
//
//   - a subject: two statements hold the same query words, at least two
//     of them (or, for a query of two words, one holds the other's and
//     the newer says it changed), and score near-equally (nearEqual of
//     the better one); a question or an echo (below) joins the subject
//     whose current statement's query words it holds, whatever it scores;
//   - a change: the newer says so ("changed", "is now", "moved to",
//     "switched", "no longer", "new" before the subject, "updated",
//     "instead of", "from today") and states a value the older lacks (a
//     word with a digit, or a capitalised word not first in its
//     sentence), or, without such words, each states a number or code
//     the other lacks ("is 4417", later "is 5521");
//   - an echo: a captured agent turn ("Assistant: …" under the hooks'
//     agent tag, a model's reply in a proxied chat) restates what it was
//     handed; it never sets a value, and one that does not hold the
//     current value is superseded.
//
// In each subject that changed, the newest statement that is not an echo
// is current: every older statement it changes, and every echo without its
// value, is superseded by it. The current statement takes the best place
// the subject's entries held in the list (a captured question that repeats
// the query's words scores best, and answers nothing), the others keep
// theirs in order after it, the superseded last.

// nearEqual is how close two statements' scores must be for the newer to
// be put first: the weaker at least this share of the stronger.
const nearEqual = 0.5

// closeEqual is nearEqual for statements that hold different query words
// (one all of the other's and more).
const closeEqual = 0.75

// changeMarker finds words that say a value changed: a verb of change
// with its target ("changed the code to", "switched to", "moved to",
// "replaced it with"; not "the update", "a change"), "renamed", "reset",
// "instead of", "no longer", "is now", "from today". "new" says so only
// before the subject ("the new garage door code", see newSubject).
var changeMarker = regexp.MustCompile(`\b((chang|switch|mov|updat)(e|ed|es|ing)?( [\w'-]+){0,5} to|(changed|switched|moved|updated)( [\w'-]+){0,5} from|(replac(e|ed|es|ing)|swapp(ed|ing))( [\w'-]+){0,5} (with|for)|renamed|reset|instead of|no longer|not any more|(is|are|'s|'re) now|now (is|are)|from today)\b`)

// markerWords are the words of the change markers: they are not values.
var markerWords = map[string]bool{"change": true, "changed": true, "changes": true, "changing": true, "switch": true,
	"switched": true, "switches": true, "switching": true, "move": true, "moved": true, "moves": true, "moving": true,
	"update": true, "updated": true, "updates": true, "replace": true, "replaced": true, "replaces": true,
	"rename": true, "renamed": true, "renames": true, "reset": true, "instead": true, "anymore": true, "longer": true,
	"new": true, "now": true, "today": true}

// agentTags are the tags under which captured agent turns are written:
// the Claude Code hooks' (internal/adapters/hooks.AgentTag).
var agentTags = []string{"claude-code"}

// statement is a result as Supersede judges it.
type statement struct {
	i        int    // in the result list
	id       string // sorts by time: an entry's id starts with its day and minute
	subject  []int  // the query words it holds
	values   map[string]bool
	marker   bool // says it changed
	echo     bool // a captured agent turn
	question bool  // asks, states nothing
	names    []int // the query words it holds capitalised: a name
	score    float64
}

// Statement is a recall result's text as Supersede reads it.
type Statement struct {
	ID    string
	Text  string
	Kind  string
	Tags  []string
	Score float64
}

// WordFinder finds a query's words in texts, as *QueryWords does.
type WordFinder interface {
	Len() int
	Find(texts []string) [][]int
}

// Supersede finds, among stmts (results in their order), the statements
// of one subject that a newer one changed (see above); qw finds the
// query's words. It returns the new order (indexes into stmts: the k-th
// place goes to stmts[order[k]]) and, by index, the id of the statement
// that supersedes each superseded one; nil, nil when nothing changed.
func Supersede(qw WordFinder, stmts []Statement) ([]int, map[int]string) {
	if qw == nil || qw.Len() == 0 || len(stmts) < 2 {
		return nil, nil
	}
	texts := make([]string, len(stmts))
	for i, s := range stmts {
		texts[i] = plainText(s.Text)
	}
	found := qw.Find(texts)
	var ss []*statement
	for i, s := range stmts {
		t := texts[i]
		if len(found[i]) == 0 {
			continue
		}
		st := &statement{i: i, id: s.ID, subject: found[i], score: s.Score, echo: isEcho(s), question: isQuestion(t)}
		lower := strings.ToLower(t)
		st.marker = changeMarker.MatchString(lower) || newSubject(lower, qw)
		st.values = values(t, qw)
		st.names = names(t, qw)
		ss = append(ss, st)
	}
	if len(ss) < 2 {
		return nil, nil
	}
	// Subjects: statements linked by a shared subject, near-equal scores.
	var auth, others []*statement
	for _, st := range ss {
		if st.echo || st.question {
			others = append(others, st)
		} else {
			auth = append(auth, st)
		}
	}
	parent := make([]int, len(auth))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for a := range auth {
		for b := a + 1; b < len(auth); b++ {
			if sameSubject(auth[a], auth[b], qw.Len()) {
				parent[find(a)] = find(b)
			}
		}
	}
	groups := map[int][]*statement{}
	var roots []int
	for i := range auth {
		r := find(i)
		if _, ok := groups[r]; !ok {
			roots = append(roots, r)
		}
		groups[r] = append(groups[r], auth[i])
	}
	by := map[int]string{}
	order := make([]int, len(stmts))
	for i := range order {
		order[i] = i
	}
	joined := map[*statement]bool{} // echoes and questions given a subject
	for _, r := range roots {
		g := groups[r]
		if len(g) < 2 {
			continue
		}
		var cur *statement
		for _, s := range g {
			if cur == nil || s.id > cur.id {
				cur = s
			}
		}
		news := map[string]bool{} // the current statement's values no older one holds
		for v := range cur.values {
			news[v] = true
		}
		var superseded []*statement
		for _, s := range g {
			if s != cur && changes(cur, s) {
				superseded = append(superseded, s)
				for v := range s.values {
					delete(news, v)
				}
			}
		}
		if len(superseded) == 0 {
			continue
		}
		// A question or an echo that holds every query word the current
		// statement holds (two at least) is about its subject, whatever
		// it scores: an echo is stale however weak.
		for _, o := range others {
			if joined[o] || len(cur.subject) < 2 || !subset(cur.subject, o.subject) {
				continue
			}
			joined[o] = true
			g = append(g, o)
			if o.echo && !o.question && len(o.values) > 0 && !holdsAny(o.values, news) {
				superseded = append(superseded, o)
			}
		}
		for _, s := range superseded {
			by[s.i] = stmts[cur.i].ID
		}
		// The subject's places in the list, best first: the current one
		// takes the first, the others keep their order, superseded last.
		var places, members []int
		for _, s := range g {
			places = append(places, s.i)
		}
		slices.Sort(places)
		members = append(members, cur.i)
		for _, p := range places {
			if _, old := by[p]; p != cur.i && !old {
				members = append(members, p)
			}
		}
		for _, p := range places {
			if _, old := by[p]; old {
				members = append(members, p)
			}
		}
		for k, p := range places {
			order[p] = members[k]
		}
	}
	if len(by) == 0 {
		return nil, nil
	}
	return order, by
}

// sameSubject reports whether statements a and b are about one subject:
// they share two of the query's words at least, and the query words of
// one are all in the other; and they score near-equally (nearEqual of the
// better one), or nearly so (closeEqual) when their words differ, unless
// the newer says it changed. For a query of at most two words, one shared
// word is enough when it is a name both write capitalised and the newer
// says it changed ("Maya lives in Leeds." then "Maya moved to Porto.",
// asked "where does Maya live?").
func sameSubject(a, b *statement, queryWords int) bool {
	newer := a
	if b.id > a.id {
		newer = b
	}
	shared := 0
	for _, w := range a.subject {
		if slices.Contains(b.subject, w) {
			shared++
		}
	}
	if !subset(a.subject, b.subject) && !subset(b.subject, a.subject) {
		return false
	}
	lo, hi := min(a.score, b.score), max(a.score, b.score)
	ratio := 0.0
	if hi > 0 {
		ratio = lo / hi
	}
	switch {
	case shared >= 2 && len(a.subject) == len(b.subject):
		return ratio >= nearEqual || newer.marker
	case shared >= 2:
		return ratio >= closeEqual || newer.marker
	default:
		return shared == 1 && queryWords <= 2 && newer.marker && len(a.names) > 0 && slices.Equal(a.names, b.names)
	}
}

// names returns the query words t holds capitalised, as a name is
// written: "Maya", not "number".
func names(t string, qw WordFinder) []int {
	var out []int
	for _, tok := range tokens(t) {
		if r, _ := utf8.DecodeRuneInString(tok); !unicode.IsUpper(r) {
			continue
		}
		for _, w := range qw.Find([]string{tok})[0] {
			if !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	slices.Sort(out)
	return out
}

// subset reports whether every query word of a is in b.
func subset(a, b []int) bool {
	for _, w := range a {
		if !slices.Contains(b, w) {
			return false
		}
	}
	return true
}

// changes reports whether newer changes older's value: it says so and
// states a value (a number, a code, a name) older lacks, or, without a
// word of change, each states a number or code the other lacks.
func changes(newer, older *statement) bool {
	if newer.marker {
		return strongOther(newer.values, older.values)
	}
	return numberOther(newer.values, older.values) && numberOther(older.values, newer.values)
}

// numberOther reports whether a holds a value with a digit that b lacks.
func numberOther(a, b map[string]bool) bool {
	for v := range a {
		if !b[v] && strings.IndexFunc(v, unicode.IsDigit) >= 0 {
			return true
		}
	}
	return false
}

// newSubject reports whether "new" comes right before a query word (two
// words between at most): "New garage door code: 5521", "the new piano
// teacher", not "a new job".
func newSubject(lower string, qw WordFinder) bool {
	f := strings.Fields(lower)
	for i, w := range f {
		if strings.Trim(w, ".,;:!?\"'()") != "new" {
			continue
		}
		for _, next := range f[i+1 : min(len(f), i+4)] {
			if len(qw.Find([]string{next})[0]) > 0 {
				return true
			}
		}
	}
	return false
}

// hasOther reports whether a holds a value b lacks.
func hasOther(a, b map[string]bool) bool {
	for v := range a {
		if !b[v] {
			return true
		}
	}
	return false
}

// strongOther reports whether a holds a number, code or name b lacks: a
// value, not just another word.
func strongOther(a, b map[string]bool) bool {
	for v, strong := range a {
		if strong && !b[v] {
			return true
		}
	}
	return false
}

func holdsAny(vs, of map[string]bool) bool {
	for v := range of {
		if _, ok := vs[v]; ok {
			return true
		}
	}
	return false
}

// values returns the words of t that may be a value: neither the query's
// words, nor stop words, nor change markers; true for a strong one (a
// number or code with a digit, or a capitalised word not first in its
// sentence).
func values(t string, qw WordFinder) map[string]bool {
	out := map[string]bool{}
	first := true
	for _, tok := range tokens(t) {
		w := strings.ToLower(tok)
		sentenceStart := first
		first = strings.ContainsAny(tok[len(tok)-1:], ".!?")
		w = strings.TrimRight(w, ".!?,;:")
		if w == "" || words.IsStop(w) || words.IsChatter(w) || markerWords[w] || len(qw.Find([]string{w})[0]) > 0 {
			continue
		}
		strong := strings.IndexFunc(w, unicode.IsDigit) >= 0
		if r, _ := utf8.DecodeRuneInString(tok); unicode.IsUpper(r) && !sentenceStart && w != "i" {
			strong = true
		}
		if strong || len(w) >= 3 {
			out[w] = out[w] || strong
		}
	}
	return out
}

// tokens splits t into words, keeping a word's inner hyphens, colons,
// dots and apostrophes ("heliotrope-42", "6:30", "v2.1") and its final
// punctuation (to tell where a sentence ends).
func tokens(t string) []string {
	var out []string
	for _, f := range strings.Fields(t) {
		f = strings.TrimLeft(f, "\"'([{“‘")
		f = strings.TrimRight(f, "\"')]}”’")
		if f != "" && strings.IndexFunc(f, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			out = append(out, f)
		}
	}
	return out
}

// plainText is an entry's text without its tags and speaker prefix.
func plainText(t string) string {
	var b strings.Builder
	for _, f := range strings.Fields(t) {
		if strings.HasPrefix(f, "#") && len(f) > 1 {
			continue
		}
		b.WriteString(f)
		b.WriteByte(' ')
	}
	s := strings.TrimSpace(b.String())
	if i := strings.Index(s, ": "); i > 0 && i <= 40 && isSpeaker(s[:i]) {
		s = s[i+2:]
	}
	return s
}

// isSpeaker reports whether name is who speaks in "Name: text": one to
// three capitalised words, or a captured turn's "user".
func isSpeaker(name string) bool {
	f := strings.Fields(name)
	if len(f) == 0 || len(f) > 3 {
		return false
	}
	if len(f) == 1 && f[0] == "user" {
		return true
	}
	for _, w := range f {
		if r, _ := utf8.DecodeRuneInString(w); !unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

// isQuestion reports whether t asks rather than states.
func isQuestion(t string) bool {
	return strings.HasSuffix(strings.TrimSpace(t), "?")
}

// isEcho reports whether s is a captured agent turn: an assistant's
// answer captured by the hooks, or a model's reply in a proxied chat.
func isEcho(s Statement) bool {
	agent, model := false, false
	for _, t := range s.Tags {
		agent = agent || slices.Contains(agentTags, t)
		model = model || strings.HasPrefix(t, "model/")
	}
	switch {
	case agent:
		return strings.HasPrefix(s.Text, "Assistant: ")
	case model && s.Kind == "chat":
		return !strings.HasPrefix(s.Text, "user: ")
	}
	return false
}
