package dayfiles

import (
	"bytes"
	"slices"

	"github.com/daybook/daybook/internal/util/date"
)

// ParseGrown parses data, the content of the day file at path, given that
// it once was prevData, parsed as prev, and has grown since: what comes
// before prev's last entry is taken from prev, and only the rest of data
// is parsed. A day of a long chat through the memory proxy is read again
// after every turn, and each turn only appends to it.
//
// It gives exactly what Parse gives. An entry line at the margin ("- HH:MM
// ...") closes every block opened before it, so the blocks before prev's
// last entry do not depend on what follows it (the reason Parse may hand
// over to goldmark at such a line, see fastBlocks); the ids of the new
// entries count the same ones before them, as assignIDs does. When data
// does not start with prevData, or prev has no such entry, it is Parse.
func ParseGrown(path string, d date.Date, prev *Day, prevData, data []byte) (*Day, error) {
	if prev == nil || prev.Date != d || prev.Path != path || len(prev.Entries) == 0 || !bytes.HasPrefix(data, prevData) {
		return Parse(path, d, data)
	}
	if len(data) == len(prevData) {
		return prev, nil // the same bytes, parsed then
	}
	keep := len(prev.Entries) - 1
	from := prev.Entries[keep].Line // parsed again: the rest of it may have grown
	lines := newLineIndex(data)
	if from < 2 || from > lines.count() || !isFastEntryLine([]byte(lines.get(from))) {
		return Parse(path, d, data)
	}
	if err := check(path, data); err != nil {
		return nil, err
	}
	rest := parseChecked(path, d, data[lines.start(from):], true)
	day := &Day{Date: d, Path: path, Title: prev.Title}
	shift := from - 1
	for _, n := range prev.Notes {
		if n.Line < from {
			day.Notes = append(day.Notes, n)
		}
	}
	for _, n := range rest.Notes {
		n.Line, n.EndLine = n.Line+shift, n.EndLine+shift
		day.Notes = append(day.Notes, n)
	}
	day.Entries = slices.Grow(slices.Clone(prev.Entries[:keep]), len(rest.Entries))
	seen := map[string]int{}
	for _, e := range day.Entries {
		seen[baseID(e.ID)]++
	}
	for _, e := range rest.Entries {
		e.Line, e.EndLine = e.Line+shift, e.EndLine+shift
		e.ID = withCount(baseID(e.ID), &seen)
		day.Entries = append(day.Entries, e)
	}
	return day, nil
}

// baseID is an entry id without its "-n" count.
func baseID(id string) string { return id[:min(len(id), idBaseLen)] }
