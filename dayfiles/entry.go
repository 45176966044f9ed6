package dayfiles

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/daybook/daybook/dayfiles/date"
)

// Kind says what an entry is. An entry without a kind in brackets is a note.
type Kind string

// The kinds an entry can have.
const (
	KindFact     Kind = "fact"
	KindDecision Kind = "decision"
	KindNote     Kind = "note"
	KindTodo     Kind = "todo"
	KindEvent    Kind = "event"
	// KindChat is a turn of a conversation with a model, remembered by the
	// memory proxy (internal/adapters/proxy) or `daybook chat`.
	KindChat Kind = "chat"
)

// Kinds lists every valid kind, in the order the docs give them.
var Kinds = []Kind{KindFact, KindDecision, KindNote, KindTodo, KindEvent, KindChat}

// ParseKind returns the kind named s; an empty s is a note.
func ParseKind(s string) (Kind, error) {
	if s == "" {
		return KindNote, nil
	}
	k := Kind(strings.ToLower(s))
	for _, v := range Kinds {
		if k == v {
			return k, nil
		}
	}
	return "", fmt.Errorf("unknown kind %q: want one of fact, decision, note, todo, event, chat", s)
}

// Entry is one remembered item of a day file: a list item that starts with a
// time, "- 09:14 [decision] Chose Argon2 over bcrypt. #auth".
type Entry struct {
	ID      string    // stable id, see EntryID
	Day     date.Date // the day file it lives in
	Hour    int
	Minute  int
	Kind    Kind
	Text    string   // the text after time and kind, continuation lines joined with "\n"
	Tags    []string // #tags in the text, lower-cased, without '#', in order, no repeats
	Line    int      // first line, 1-based
	EndLine int      // last line, inclusive
}

// Clock returns the entry's time as HH:MM.
func (e Entry) Clock() string { return fmt.Sprintf("%02d:%02d", e.Hour, e.Minute) }

// Note is free text of a day file outside entries: a heading, a paragraph, a
// list that is not entries, a code block, front matter. It is kept as written.
type Note struct {
	Line    int
	EndLine int
	Text    string
}

// ID returns the note's id within day d: "2026-11-22:L12". Unlike entry ids it
// moves when lines are added above it.
func (n Note) ID(d date.Date) string { return LineID(d, n.Line) }

// LineID returns the id of line n of day d's file: "2026-11-22:L12".
func LineID(d date.Date, n int) string { return fmt.Sprintf("%s:L%d", d, n) }

// ParseLineID parses a LineID; ok is false when id is not one.
func ParseLineID(id string) (d date.Date, n int, ok bool) {
	ds, ls, ok := strings.Cut(id, ":L")
	if !ok {
		return date.Date{}, 0, false
	}
	d, err := date.Parse(ds)
	if err != nil {
		return date.Date{}, 0, false
	}
	n, err = strconv.Atoi(ls)
	if err != nil || n < 1 {
		return date.Date{}, 0, false
	}
	return d, n, true
}

// appendPadded appends v in decimal, zero-padded to width digits.
func appendPadded(b []byte, v, width int) []byte {
	var digits [20]byte
	i := len(digits)
	for v >= 10 || len(digits)-i < width-1 {
		i--
		digits[i] = byte('0' + v%10)
		v /= 10
	}
	i--
	digits[i] = byte('0' + v%10)
	return append(b, digits[i:]...)
}

// parseEntryHead parses the first line of a list item's content (after "- ")
// as "HH:MM [kind] text". ok is false when it is not an entry.
func parseEntryHead(s string) (hour, minute int, kind Kind, text string, ok bool) {
	// H:MM or HH:MM, then a space or the end.
	i := 0
	for i < len(s) && i < 2 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i >= len(s) || s[i] != ':' || len(s) < i+3 || !isDigit(s[i+1]) || !isDigit(s[i+2]) {
		return
	}
	hour = atoi(s[:i])
	minute = atoi(s[i+1 : i+3])
	if hour > 23 || minute > 59 {
		return
	}
	rest := s[i+3:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return
	}
	rest = strings.TrimLeft(rest, " \t")
	kind = KindNote
	if strings.HasPrefix(rest, "[") {
		if j := strings.IndexByte(rest, ']'); j > 1 { // "[]" is text, not an empty kind
			if k, err := ParseKind(rest[1:j]); err == nil {
				kind = k
				rest = strings.TrimLeft(rest[j+1:], " \t")
			}
		}
	}
	return hour, minute, kind, rest, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// Tags returns the #tags of text, lower-cased, without '#', first occurrence
// first. A tag starts with a letter after '#', which itself follows a space,
// the start of the text or an opening bracket; it runs over letters, digits,
// '-', '_' and '/'. "#1", "C#" and "a#b" are not tags; code spans are skipped.
func Tags(text string) []string { return appendTags(nil, text) }

// appendTags appends the tags of text to dst, as Tags gives them.
func appendTags(dst []string, text string) []string {
	if strings.IndexByte(text, '#') < 0 {
		return dst // most entries: no need to read them rune by rune
	}
	from := len(dst)
	tags := dst
	inCode := false
	// From one '#' or '`' to the next: nothing else changes what is a tag.
	for i := 0; ; {
		k := strings.IndexAny(text[i:], "#`")
		if k < 0 {
			break
		}
		i += k
		if text[i] == '`' {
			inCode = !inCode
			i++
			continue
		}
		prev := ' '
		if i > 0 {
			prev, _ = utf8.DecodeLastRuneInString(text[:i])
		}
		if inCode || !(unicode.IsSpace(prev) || prev == '(' || prev == '[') {
			i++
			continue
		}
		j := i + 1
		for j < len(text) {
			q, qs := utf8.DecodeRuneInString(text[j:])
			if !(unicode.IsLetter(q) || unicode.IsDigit(q) || q == '-' || q == '_' || q == '/') {
				break
			}
			j += qs
		}
		tag := strings.TrimRight(text[i+1:j], "-_/")
		if first, _ := utf8.DecodeRuneInString(tag); tag != "" && unicode.IsLetter(first) {
			tag = strings.ToLower(tag)              // the text's own bytes when already lower case
			if !slices.Contains(tags[from:], tag) { // an entry has a few tags: no map
				tags = append(tags, tag)
			}
		}
		i = j
	}
	return tags
}
