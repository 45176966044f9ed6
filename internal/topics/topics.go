// Package topics finds what the day files are about: their #tags, the
// people and projects their entries name (consolidate's People heuristic),
// and three base topics that always exist:
//
//   - self: entries tagged #self, or written in the first person singular
//     (the word I, I'm, I've, I'll, I'd, me, my, mine or myself);
//   - user: entries tagged #user, or that say "the user" (an agent writing
//     about the person it works for);
//   - system: entries tagged #system, or that say "the system" or "daybook".
//
// A topic counts the entries that name it, with the first and last day.
// Index keeps a cache of each day file's topics in DATA/state/topics.json,
// keyed by the file's size and modification time, so that only changed day
// files are parsed again.
package topics

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// Kind says what a topic is.
type Kind string

// The kinds of topic.
const (
	KindBase   Kind = "base"
	KindTag    Kind = "tag"    // named "#auth"
	KindPerson Kind = "person" // a person or a project: "Alice Smith", "@maya", "Granite"
)

// The base topics.
const (
	Self   = "self"
	User   = "user"
	System = "system"
)

// Bases lists the base topics.
var Bases = []string{Self, User, System}

// Topic is one topic with the entries that name it.
type Topic struct {
	Name  string
	Kind  Kind
	Count int       // entries that name it
	First date.Date // zero when Count is 0
	Last  date.Date
}

// KindOf returns the kind of a topic name.
func KindOf(name string) Kind {
	switch {
	case name == Self || name == User || name == System:
		return KindBase
	case strings.HasPrefix(name, "#"):
		return KindTag
	default:
		return KindPerson
	}
}

// EntryTopics returns the topics of one entry, each once: its base topics,
// its tags as "#tag" (#self, #user and #system are the base topics), and the
// people and projects it names.
func EntryTopics(e dayfiles.Entry) []string {
	var out []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, b := range baseTopics(e.Text, e.Tags) {
		add(b)
	}
	for _, t := range e.Tags {
		if !isBase(t) {
			add("#" + t)
		}
	}
	for _, p := range consolidate.Names(e.Text) {
		add(p)
	}
	return out
}

func isBase(s string) bool { return s == Self || s == User || s == System }

// baseTopics applies the rules of the package comment.
func baseTopics(text string, tags []string) []string {
	var out []string
	has := func(t string) bool {
		for _, x := range tags {
			if x == t {
				return true
			}
		}
		return false
	}
	lower := strings.ToLower(text)
	if has(Self) || firstPerson(text) {
		out = append(out, Self)
	}
	if has(User) || containsWords(lower, "the user") {
		out = append(out, User)
	}
	if has(System) || containsWords(lower, "the system") || containsWords(lower, "daybook") {
		out = append(out, System)
	}
	return out
}

// firstPerson reports whether text has a first-person singular word.
func firstPerson(text string) bool {
	for f := range strings.FieldsSeq(text) {
		w := strings.Trim(f, `.,;:!?()"'*_[]`)
		switch w {
		case "I", "I'm", "I've", "I'll", "I'd", "I’m", "I’ve":
			return true
		}
		switch strings.ToLower(w) {
		case "me", "my", "mine", "myself":
			return true
		}
	}
	return false
}

// containsWords reports whether s holds phrase between word boundaries.
func containsWords(s, phrase string) bool {
	for i := 0; i+len(phrase) <= len(s); {
		j := strings.Index(s[i:], phrase)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(phrase)
		if boundary(s, start-1, true) && boundary(s, end, false) {
			return true
		}
		i = start + 1
	}
	return false
}

// boundary reports whether the rune ending before (before=true) or starting
// at index i of s is not part of a word.
func boundary(s string, i int, before bool) bool {
	if i < 0 || i >= len(s) {
		return true
	}
	var r rune
	if before {
		r, _ = utf8.DecodeLastRuneInString(s[:i+1])
	} else {
		r, _ = utf8.DecodeRuneInString(s[i:])
	}
	return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '/' || r == '@' || r == '#')
}

// Mentions reports whether a line of text (a summary's prose or decision)
// mentions topic: a tag as "#auth" or the bare word "auth" in any case
// (summaries' prose drops the '#'); a person or project by its exact name;
// a base topic by the rules of the package comment.
func Mentions(topic, line string) bool {
	switch KindOf(topic) {
	case KindBase:
		return len(baseTopicsMatching(line, topic)) > 0
	case KindTag:
		lower := strings.ToLower(line)
		return containsWords(lower, topic) || containsWords(lower, topic[1:])
	default:
		return containsWords(line, topic)
	}
}

func baseTopicsMatching(line, topic string) []string {
	var out []string
	for _, b := range baseTopics(line, dayfiles.Tags(line)) {
		if b == topic {
			out = append(out, b)
		}
	}
	return out
}
