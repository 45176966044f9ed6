package merge

import (
	"fmt"
	"slices"
	"strings"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// keptHeading introduces, in a merged day, the text outside entries that
// both sides changed: the other side's version is kept below it rather
// than one of them chosen.
const keptHeading = "## Kept from the other side of a merge"

// Three merges two versions of a day file, ours and theirs, made from
// base, by entry, for git's merge driver: an entry either side added is
// in the result once; an entry of base that either side removed (or
// changed: a changed entry is a removed one and an added one) is not.
// Ours is the frame: its order and its text outside entries are kept,
// theirs' new entries are appended. When only theirs changed the text
// outside entries, theirs is the frame instead. When both changed it,
// theirs' changed text is kept below keptHeading, so nothing either side
// wrote is lost. An empty base (git gives one when the file is new on both
// sides) is a base with no entries: every entry of either side is kept.
// A version holding conflict markers is an error.
func Three(d date.Date, base, ours, theirs []byte) ([]byte, error) {
	var days [3]*dayfiles.Day
	for i, v := range [][]byte{base, ours, theirs} {
		name := [3]string{"the base", "ours", "theirs"}[i]
		day, err := dayfiles.Parse(name, d, v)
		if err != nil {
			return nil, fmt.Errorf("merging %s: %w", dayfiles.RelPath(d), err)
		}
		days[i] = day
	}
	o, a, b := days[0], days[1], days[2]
	if notes(a) == notes(o) && notes(b) != notes(o) {
		a, b, ours, theirs = b, a, theirs, ours
	}
	cO, cA, cB := counted(o), counted(a), counted(b)
	// Remove from the frame what the other side removed from the base.
	drop := map[string]int{}
	for id, n := range cO {
		if gone := n - cB[id]; gone > 0 {
			drop[id] = min(gone, cA[id])
		}
	}
	lines := strings.SplitAfter(string(ours), "\n")
	skip := make([]bool, len(lines)+1)
	for _, e := range a.Entries {
		id := dayfiles.EntryID(e.ID).Base()
		if drop[id] > 0 {
			drop[id]--
			for l := e.Line; l <= e.EndLine && l <= len(lines); l++ {
				skip[l-1] = true
			}
		}
	}
	var out strings.Builder
	for i, l := range lines {
		if !skip[i] {
			out.WriteString(l)
		}
	}
	// Add what the other side added to the base.
	src := strings.Split(string(theirs), "\n")
	var add []string
	for _, e := range b.Entries {
		id := dayfiles.EntryID(e.ID).Base()
		switch {
		case cO[id] > 0:
			cO[id]-- // in the base: the frame has it, or removed it
			cA[id]--
		case cA[id] > 0:
			cA[id]-- // added on both sides
		default:
			add = append(add, entryLines(src, e))
		}
	}
	res := out.String()
	if kept := changedNotes(o, a, b); kept != "" {
		res = withSep(res) + "\n" + keptHeading + "\n\n" + kept
	}
	if len(add) > 0 {
		res = withSep(res) + strings.Join(add, "")
	}
	if _, err := dayfiles.Parse("the merge", d, []byte(res)); err != nil {
		return nil, fmt.Errorf("merging %s: the result does not parse: %w", dayfiles.RelPath(d), err)
	}
	return []byte(res), nil
}

// withSep ends s so that list items can follow: a newline, and a blank
// line after anything that is not a list item.
func withSep(s string) string {
	if s == "" {
		return s
	}
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	last := s[strings.LastIndexByte(s[:len(s)-1], '\n')+1:]
	if strings.HasPrefix(last, "- ") || strings.TrimSpace(last) == "" {
		return s
	}
	return s + "\n"
}

// notes returns a day's text outside entries, title included.
func notes(d *dayfiles.Day) string {
	var b strings.Builder
	b.WriteString(d.Title)
	for _, n := range d.Notes {
		b.WriteString("\n\x00")
		b.WriteString(n.Text)
	}
	return b.String()
}

// changedNotes returns theirs' notes that neither the base nor ours has,
// when both sides changed their text outside entries.
func changedNotes(o, a, b *dayfiles.Day) string {
	if notes(a) == notes(o) || notes(b) == notes(o) || notes(a) == notes(b) {
		return ""
	}
	have := map[string]bool{}
	for _, n := range slices.Concat(o.Notes, a.Notes) {
		have[n.Text] = true
	}
	var out []string
	for _, n := range b.Notes {
		if !have[n.Text] && strings.TrimSpace(n.Text) != "" {
			out = append(out, strings.TrimRight(n.Text, "\n")+"\n")
		}
	}
	return strings.Join(out, "\n")
}

// counted counts a day's entries by id without the "-n" of repeats.
func counted(d *dayfiles.Day) map[string]int {
	c := map[string]int{}
	for _, e := range d.Entries {
		c[dayfiles.EntryID(e.ID).Base()]++
	}
	return c
}
