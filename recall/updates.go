package recall

import (
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
//   - a subject: a newer statement holds two of the query's words at
//     least and none that the older lacks, and they score near-equally
//     (nearEqual of the better one; recall scores a statement by its own
//     BM25) or the newer says it changed (see sameSubject); a captured
//     question, or an echo (below), holds every query word of the
//     subject's current statement (of the subject that holds the most of
//     them, when several do);
//   - a change: the newer says so ("changed", "is now", "moved to",
//     "switched", "handed … to", "no longer", "new" before the subject,
//     "updated", "instead of", "from today") and states a value the older lacks (a
//     word with a digit, or a capitalised word not first in its
//     sentence), or, without such words, each states a number or code
//     the other lacks ("is 4417", later "is 5521");
//   - an echo: a captured agent turn ("Assistant: …" under the hooks'
//     agent tag, a model's reply in a proxied chat) restates what it was
//     handed; it never sets a value, and one that does not hold the
//     current value is superseded.
//
// Statements are read newest first: each supersedes the older ones of
// its subject that it changes, on behalf of the newest statement of that
// chain, the current one; an echo without the current value is superseded
// by it too. The current statement takes the best place
// the subject's entries held in the list (a captured question that repeats
// the query's words scores best, and answers nothing), the others keep
// theirs in order after it, the superseded last. Recall hands Supersede
// the best candidates by BM25 past its list too (Statement.Outside): the
// current statement may be among them, its day below the list's (a busy
// day whose summary does not name the fact), and then comes in.

// saysChange reports whether the words ws (lower-cased, without their
// trailing punctuation) say a value changed: a verb of change with its
// target ("changed the code to", "switched to", "moved to", "handed the
// squad to", "updated … from", "replaced it with"; not "the update", "a
// change"), "renamed", "reset", "instead of", "no longer", "not any
// more", "anymore", "is now", "now is", "from today". "new" says so only
// before the subject ("the new garage door code", see newSubject).
func saysChange(ws []string) bool {
	within := func(k int, targets ...string) bool {
		for _, w := range ws[k+1 : min(len(ws), k+7)] {
			if slices.Contains(targets, w) {
				return true
			}
		}
		return false
	}
	for k, w := range ws {
		next := ""
		if k+1 < len(ws) {
			next = ws[k+1]
		}
		switch {
		case changeVerbs[w]:
			if within(k, "to") || strings.HasSuffix(w, "ed") && within(k, "from") {
				return true
			}
		case replaceVerbs[w]:
			if within(k, "with", "for", "by") {
				return true
			}
		case w == "renamed" || w == "reset" || w == "anymore",
			w == "instead" && next == "of",
			w == "longer" && k > 0 && ws[k-1] == "no",
			w == "more" && k > 1 && ws[k-1] == "any" && ws[k-2] == "not",
			w == "now" && k > 0 && (ws[k-1] == "is" || ws[k-1] == "are" || strings.HasSuffix(ws[k-1], "'s") || strings.HasSuffix(ws[k-1], "'re")),
			w == "now" && (next == "is" || next == "are"),
			w == "from" && next == "today":
			return true
		}
	}
	return false
}

// changeVerbs say a change with "to" ("changed the code to"), and with
// "from" in the past; replaceVerbs with "with" or "for".
var (
	changeVerbs = map[string]bool{"change": true, "changed": true, "changes": true, "changing": true,
		"switch": true, "switched": true, "switches": true, "switching": true, "move": true, "moved": true,
		"moves": true, "moving": true, "update": true, "updated": true, "updates": true, "updating": true,
		"hand": true, "handed": true, "hands": true, "handing": true, "transfer": true, "transferred": true,
		"transfers": true, "transferring": true}
	replaceVerbs = map[string]bool{"replace": true, "replaced": true, "replaces": true, "replacing": true,
		"swap": true, "swapped": true, "swaps": true, "swapping": true}
)

// markerWords are the words of the change markers: they are not values.
var markerWords = map[string]bool{"change": true, "changed": true, "changes": true, "changing": true, "switch": true,
	"switched": true, "switches": true, "switching": true, "move": true, "moved": true, "moves": true, "moving": true,
	"update": true, "updated": true, "updates": true, "hand": true, "handed": true, "hands": true, "handing": true,
	"transfer": true, "transferred": true, "transfers": true, "transferring": true, "replace": true, "replaced": true, "replaces": true,
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
	marker   bool     // says it changed
	echo     bool     // a captured agent turn
	question bool     // asks, states nothing
	outside  bool     // beyond the list (Statement.Outside)
	names    []int    // the query words it holds capitalised: a name
	numbers  []string // its values with a digit
	score    float64
}

// Statement is a recall result's text as Supersede reads it.
type Statement struct {
	ID    string
	Text  string
	Kind  string
	Tags  []string
	Score float64
	// Outside marks a candidate beyond the result list, read for its
	// subject: one that the list's statements score below (a busy day
	// whose summary does not name the fact) may still be the current
	// statement of a subject the list holds. It takes a place only as
	// such; an older statement or an echo outside stays outside.
	Outside bool
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
//
// Statements marked Outside come after the list's (their places are
// past its end): the current statement of a subject may come from there
// and take its subject's best place in the list; the member of the
// subject that it pushes out of the list lands on its place.
func Supersede(qw WordFinder, stmts []Statement) ([]int, map[int]string) {
	if qw == nil || qw.Len() == 0 || len(stmts) < 2 {
		return nil, nil
	}
	ss := readStatements(qw, stmts)
	if len(ss) < 2 {
		return nil, nil
	}
	var auth, others []*statement
	for _, st := range ss {
		switch {
		case st.echo || st.question:
			others = append(others, st)
		default:
			auth = append(auth, st)
		}
	}
	held := heldWords(auth)
	currents, olds := chains(auth, len(held))
	by := map[int]string{}
	order := make([]int, len(stmts))
	for i := range order {
		order[i] = i
	}
	// An echo or a question joins the subject that holds the most of its
	// query words: "what is the climbing gym membership number?" is asked
	// of the membership number, not of "the climbing gym numbers".
	slices.SortStableFunc(currents, func(a, b *statement) int { return len(b.subject) - len(a.subject) })
	joined := map[*statement]bool{} // echoes and questions given a subject
	for _, cur := range currents {
		g, superseded := subjectOf(cur, olds[cur], others, joined, len(held))
		for _, s := range superseded {
			by[s.i] = stmts[cur.i].ID
		}
		place(order, cur, g, by)
	}
	if len(by) == 0 {
		return nil, nil
	}
	return order, by
}

// readStatements reads the statements among stmts that hold a query
// word. Most of a context's evidence holds none: only those that do are
// read without their tags and speaker. A result that tells a story (see
// maxStatement) states no value and is left out, unless it is an echo or
// a question.
func readStatements(qw WordFinder, stmts []Statement) []*statement {
	texts := make([]string, len(stmts))
	for i, s := range stmts {
		texts[i] = s.Text
	}
	found := qw.Find(texts)
	var some []int
	for i := range stmts {
		if len(found[i]) > 0 {
			texts[i] = plainText(texts[i])
			some = append(some, i)
		}
	}
	plain := make([]string, len(some))
	for k, i := range some {
		plain[k] = texts[i]
	}
	for k, f := range qw.Find(plain) {
		found[some[k]] = f
	}
	var ss []*statement
	for _, i := range some {
		s, t := stmts[i], texts[i]
		if len(found[i]) == 0 {
			continue
		}
		st := &statement{i: i, id: s.ID, subject: found[i], score: s.Score, echo: isEcho(s), question: isQuestion(t), outside: s.Outside}
		toks := tokens(t)
		if !st.echo && !st.question && len(toks) > maxStatement {
			continue // tells a story (see maxStatement)
		}
		inToks := qw.Find(toks) // the query words each token is
		lower := make([]string, len(toks))
		for k, tok := range toks {
			lower[k] = strings.TrimRight(strings.ToLower(tok), ".,;:!?")
		}
		st.marker = saysChange(lower) || newSubject(toks, inToks)
		st.values = values(toks, inToks)
		st.names = names(toks, inToks)
		for v := range st.values {
			if strings.IndexFunc(v, unicode.IsDigit) >= 0 {
				st.numbers = append(st.numbers, v)
			}
		}
		ss = append(ss, st)
	}
	return ss
}

// heldWords returns the query's words that the statements auth hold: a
// query's "s" of "what's" or its "remind" are no part of any subject.
func heldWords(auth []*statement) map[int]bool {
	held := map[int]bool{}
	for _, a := range auth {
		for _, w := range a.subject {
			held[w] = true
		}
	}
	return held
}

// chains reads the statements auth newest first: each supersedes the
// older ones of its subject that it changes, for the current statement it
// leads to (its own superseder's, when a newer one changed it too). A
// statement past the list supersedes only when it could come in: it says
// it changed, of a subject of minOutsideSubject words at least. It
// returns the current statements, newest first, and by each the older ones
// it superseded. auth is sorted newest first.
func chains(auth []*statement, queryWords int) ([]*statement, map[*statement][]*statement) {
	slices.SortFunc(auth, func(a, b *statement) int { return strings.Compare(b.id, a.id) })
	supBy := map[*statement]*statement{}
	root := func(s *statement) *statement {
		for supBy[s] != nil {
			s = supBy[s]
		}
		return s
	}
	olds := map[*statement][]*statement{} // by current statement
	var currents []*statement
	for k, n := range auth {
		if n.outside && (len(n.subject) < minOutsideSubject || !n.marker) {
			continue // too little to come in on (see minOutsideSubject)
		}
		for _, o := range auth[k+1:] {
			if supBy[o] == nil && sameSubject(n, o, queryWords) && changes(n, o) {
				cur := root(n)
				if len(olds[cur]) == 0 {
					currents = append(currents, cur)
				}
				supBy[o] = cur
				olds[cur] = append(olds[cur], o)
			}
		}
	}
	return currents, olds
}

// subjectOf returns the statements of cur's subject, cur first, and those
// of them it supersedes: the older ones it changed, superseded, and the
// questions and echoes of others not yet joined to a subject that hold
// every query word cur holds (two at least, or its one of a short query).
// Such a question or echo is about its subject whatever it scores; an echo
// that states values none of them the current statement's new ones is
// stale however weak.
func subjectOf(cur *statement, superseded, others []*statement, joined map[*statement]bool, queryWords int) (g, stale []*statement) {
	g = append([]*statement{cur}, superseded...)
	stale = slices.Clone(superseded)
	news := map[string]bool{} // the current statement's values no older one holds
	for v := range cur.values {
		news[v] = true
	}
	for _, s := range superseded {
		for v := range s.values {
			delete(news, v)
		}
	}
	for _, o := range others {
		if joined[o] || len(cur.subject) < 2 && queryWords > 2 || !subset(cur.subject, o.subject) {
			continue
		}
		joined[o] = true
		g = append(g, o)
		if o.echo && !o.question && len(o.values) > 0 && !holdsAny(o.values, news) {
			stale = append(stale, o)
		}
	}
	return g, stale
}

// place gives the statements g of cur's subject their places in order:
// the places they held, best first; the current one takes the first, the
// others keep their order, the superseded (in by) last. A statement
// outside the list other than cur keeps its place: only the current
// statement comes in from outside, and the member it pushes past the
// list's end takes its place.
func place(order []int, cur *statement, g []*statement, by map[int]string) {
	var places, members []int
	for _, s := range g {
		if s == cur || !s.outside {
			places = append(places, s.i)
		}
	}
	slices.Sort(places)
	members = append(members, cur.i)
	for _, p := range places {
		if _, old := by[p]; p != cur.i && !old {
			members = append(members, p)
		}
	}
	for _, p := range places {
		if _, old := by[p]; p != cur.i && old {
			members = append(members, p)
		}
	}
	for k, p := range places {
		order[p] = members[k]
	}
}

// sameSubject reports whether statement newer is about the subject of
// the older statement older: it holds two of the query's words at least,
// and none that older lacks (a word more would make it another subject:
// "the climbing gym number" beside "the gym locker number"); when they
// hold the same query words they score near-equally (nearEqual of the
// better one), unless newer says it changed; when newer holds fewer, it
// says it changed and they score near-equally ("Renamed the Wi-Fi network
// to …" after "The Wi-Fi network is called …"; not "The climbing gym
// number is now …" after "The gym locker number is …", which scores
// lower for the rarer word it lacks). For a query of at most two words, one shared
// word is enough when the newer says it changed and they score
// near-equally, or when it is a name both write capitalised ("Maya lives in Leeds." then "Maya moved to Porto.",
// asked "where does Maya live?").
//
// queryWords is how many of the query's words the statements hold: a
// subject holds half of them at least (a message that shares two words
// of a long question is not a statement of what it asks).
func sameSubject(newer, older *statement, queryWords int) bool {
	if !subset(newer.subject, older.subject) || 2*len(newer.subject) < queryWords {
		return false
	}
	lo, hi := min(newer.score, older.score), max(newer.score, older.score)
	switch {
	case len(newer.subject) >= 2 && len(newer.subject) == len(older.subject):
		return hi > 0 && lo >= nearEqual*hi || newer.marker
	case len(newer.subject) >= 2:
		return newer.marker && hi > 0 && lo >= nearEqual*hi
	case len(newer.subject) == len(older.subject):
		// One word of a short query, in both: "The physiotherapist is
		// Callum Reddy." then "Switched the physiotherapist to …".
		return queryWords <= 2 && newer.marker && hi > 0 && lo >= nearEqual*hi
	default:
		return queryWords <= 2 && newer.marker && len(newer.names) > 0 && slices.Equal(newer.names, older.names)
	}
}

// names returns the query words among toks written capitalised, as a
// name is: "Maya", not "number"; found holds each token's query words.
func names(toks []string, found [][]int) []int {
	var out []int
	for k, tok := range toks {
		if r, _ := utf8.DecodeRuneInString(tok); !unicode.IsUpper(r) {
			continue
		}
		for _, w := range found[k] {
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
// word of change, both hold the same query words and each states a number
// or code the other lacks.
func changes(newer, older *statement) bool {
	if newer.marker {
		return strongOther(newer.values, older.values)
	}
	return slices.Equal(newer.subject, older.subject) && numberOther(newer, older) && numberOther(older, newer)
}

// numberOther reports whether a holds a value with a digit that b lacks.
func numberOther(a, b *statement) bool {
	for _, v := range a.numbers {
		if _, ok := b.values[v]; !ok {
			return true
		}
	}
	return false
}

// newSubject reports whether "new" comes right before a query word that
// is not part of a name: "New garage door code: 5521", "the new piano
// teacher", "a new GP" (an acronym is no name), not "a new job" or "New
// York". found holds each token's query words.
func newSubject(toks []string, found [][]int) bool {
	for k, tok := range toks[:max(len(toks)-1, 0)] {
		if !strings.EqualFold(strings.TrimRight(tok, ".,;:!?"), "new") {
			continue
		}
		next := strings.TrimRight(toks[k+1], ".,;:!?")
		if r, _ := utf8.DecodeRuneInString(next); (!unicode.IsUpper(r) || isAcronym(next)) && len(found[k+1]) > 0 {
			return true
		}
	}
	return false
}

// isAcronym reports whether w is written in capitals, two letters at
// least: "GP", "PIN".
func isAcronym(w string) bool {
	letters := 0
	for _, r := range w {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return letters >= 2
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

// values returns the words among toks that may be a value: neither the
// query's words (found holds each token's), nor stop words, nor change
// markers; true for a strong one (a number or code with a digit, or a
// capitalised word not first in its sentence).
func values(toks []string, found [][]int) map[string]bool {
	out := map[string]bool{}
	first := true
	for k, tok := range toks {
		w := strings.ToLower(tok)
		sentenceStart := first
		first = strings.ContainsAny(tok[len(tok)-1:], ".!?")
		w = strings.TrimRight(w, ".!?,;:")
		if w == "" || len(found[k]) > 0 || words.IsStop(w) || words.IsChatter(w) || markerWords[w] {
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
