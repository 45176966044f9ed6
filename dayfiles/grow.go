package dayfiles

import (
	"hash/maphash"
	"slices"
	"strings"

	"github.com/daybook/daybook/dayfiles/date"
)

// ParseGrown parses data, the content of the day file at path, given that
// prev was parsed from what data may have grown from: what comes before
// prev's last entry is taken from prev, and only the rest of data is
// parsed. A day of a long chat through the memory proxy is read again after
// every turn, and each turn only appends to it.
//
// It gives exactly what Parse gives. An entry line at the margin ("- HH:MM
// ...") closes every block opened before it, so the blocks before prev's
// last entry do not depend on what follows it (the reason Parse may hand
// over to goldmark at such a line, see fastBlocks); the ids of the new
// entries count the same ones before them, as assignIDs does. prev keeps a
// hash of the bytes it was parsed from, not the bytes: when data does not
// start with them (by that hash, 64 bits, with a seed of this process), or
// prev has no such entry, it is Parse. When data is those bytes, it is prev.
func ParseGrown(path string, d date.Date, prev *Day, data []byte) (*Day, error) {
	if prev == nil || prev.Date != d || prev.Path != path || len(prev.Entries) == 0 || !prev.src.valid {
		return Parse(path, d, data)
	}
	n := prev.src.n
	if len(data) < n {
		return Parse(path, d, data)
	}
	var h maphash.Hash
	h.SetSeed(seed)
	h.Write(data[:n])
	if h.Sum64() != prev.src.sum {
		return Parse(path, d, data)
	}
	if len(data) == n {
		return prev, nil // the same bytes, parsed then
	}
	h.Write(data[n:])
	src := digest{n: len(data), sum: h.Sum64(), valid: true}

	keep := len(prev.Entries) - 1
	from := prev.Entries[keep].Line // parsed again: the rest of it may have grown
	lines := newLineIndex(data)
	if from < 2 || from > lines.count() || !isFastEntryLine([]byte(lines.get(from))) {
		return Parse(path, d, data)
	}
	if next, ok := closedAfter(prev, lines, n); ok {
		keep, from = len(prev.Entries), next // the last entry too, as prev has it
	}
	if err := check(path, data); err != nil {
		return nil, err
	}
	rest := parseChecked(path, d, data[lines.start(from):], true)
	day := &Day{Date: d, Path: path, Title: prev.Title, src: src}
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

// closedAfter returns the line of data that starts its first entry after
// prev's last one, when that entry closes prev's last one as prev has it:
// prev's bytes (the first n of data) ended a line, nothing but blank lines
// comes between, and it is an entry line at the margin, in the new bytes.
// An appended turn is then parsed alone, and the last entry before it is
// not parsed and copied again with it.
func closedAfter(prev *Day, lines *lineIndex, n int) (int, bool) {
	last := prev.Entries[len(prev.Entries)-1]
	if n == 0 || lines.data[n-1] != '\n' {
		return 0, false
	}
	for _, note := range prev.Notes {
		if note.Line > last.Line {
			return 0, false
		}
	}
	l := last.EndLine + 1
	for l <= lines.count() && strings.TrimSpace(lines.get(l)) == "" {
		l++
	}
	if l > lines.count() || lines.start(l) < n || !isFastEntryLine([]byte(lines.get(l))) {
		return 0, false
	}
	return l, true
}

// digest is what ParseGrown knows of the bytes a day was parsed from.
type digest struct {
	n     int
	sum   uint64 // maphash of the n bytes, with seed
	valid bool   // false for a Day not made by Parse
}

// seed is this process's: a digest is never stored.
var seed = maphash.MakeSeed()

func digestOf(data []byte) digest {
	return digest{n: len(data), sum: maphash.Bytes(seed, data), valid: true}
}

// baseID is an entry id without its "-n" count.
func baseID(id string) string { return id[:min(len(id), idBaseLen)] }
