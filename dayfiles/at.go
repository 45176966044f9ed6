package dayfiles

import "github.com/daybook/daybook/dayfiles/date"

// Block is what Parse makes of one block of a day file: an entry, or a note
// when the block is not one.
type Block struct {
	Entry   Entry // Kind, Text, Tags, Line and EndLine; ID and Day are not set
	Note    Note
	IsEntry bool
}

// BlockAt returns what Parse gives for the block at lines first..last of
// data, the content of day d's file, without parsing the rest of the file:
// the index reads a hit's text back this way, by the lines it recorded. It
// does not check that the lines are one block of the file as it is now (a
// hand edit may have moved them): the caller compares what it gets with
// what it expects and parses the whole file when they differ. ok is false
// when the lines are not in data.
func BlockAt(data []byte, d date.Date, first, last int) (b Block, ok bool) {
	lines := newLineIndex(data)
	if first < 1 || last < first || last > lines.count() {
		return Block{}, false
	}
	if e, ok := parseItem(lines, first, last); ok {
		e.Day, e.Tags = d, Tags(e.Text)
		return Block{Entry: e, IsEntry: true}, true
	}
	return Block{Note: Note{Line: first, EndLine: last, Text: lines.text(first, last, 0)}}, true
}
