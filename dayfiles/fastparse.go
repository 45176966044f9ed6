package dayfiles

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The fast path of Parse. Most day files hold only what daybook itself writes
// (remember, import, gen): a title line, blank lines, entry lines "- HH:MM
// ..." at the left margin and continuation lines indented by two spaces or
// more. For such a file the block structure is plain: every entry line starts
// a top-level list item, every indented line belongs to the item above it,
// and the title line is a heading. fastBlocks recognises these files with one
// pass over the lines and lists their blocks exactly as collectBlocks would
// from goldmark's tree; for anything else (a paragraph, a heading after the
// first line, a fence or HTML at the margin, a lazy continuation line, a tab
// or odd indentation, CR line endings, a byte-order mark, control bytes) it
// says no and Parse asks goldmark. FuzzFastParse and TestFastParseCorpus
// check that both ways give the same Day.
//
// Why indented lines cannot change the top-level blocks: an item whose marker
// is "- " has its content at column 2, so a line indented by two or more
// spaces continues it whatever it holds (CommonMark's container matching
// comes before any block inside); blocks opened inside the item (a fence, an
// HTML block, a nested list) are closed by the next line at the margin,
// because only a paragraph takes a lazy continuation line, and an entry line
// starts a bullet item, which may interrupt a paragraph. One goldmark quirk
// breaks the first rule: after a list item left without children and a
// blank line, the next non-blank line closes every list open around it, so
// an indented line that may leave an item empty is not one the fast path
// knows (see mayEmptyItem).

// fastBlocks returns the blocks of the file behind lines, as collectBlocks
// would, as far as the lines are ones the fast path knows. rest is 0 when
// that is the whole file; otherwise the caller must parse the file from line
// rest on with goldmark and add the blocks it finds. rest is then the line of
// the last entry before the first line the fast path does not know (or 1):
// an entry line at the margin closes every block opened before it and opens
// a bullet item afresh, so goldmark parsing from there finds what it would
// find parsing the whole file.
func fastBlocks(lines *lineIndex) (blocks []block, rest int) {
	data := lines.data
	inEntry := false
	last := -1 // index in blocks of the last entry
	blocks = make([]block, 0, len(lines.starts)/2+1)
	for i, start := range lines.starts {
		end := len(data)
		if i+1 < len(lines.starts) {
			end = lines.starts[i+1] - 1 // the '\n'
		} else if end > start && data[end-1] == '\n' {
			end--
		}
		line := data[start:end]
		indent, blank, clean := measureLine(line)
		switch {
		case !clean:
		case blank, indent >= 2 && inEntry && !mayEmptyItem(line[indent:]):
			continue
		case indent > 0: // a paragraph or indented code, not in an item
		case i == 0 && line[0] == '#' && (len(line) == 1 || line[1] == ' '):
			blocks = append(blocks, block{line: 1, title: true})
			continue
		case isFastEntryLine(line):
			last = len(blocks)
			blocks = append(blocks, block{line: i + 1, item: true})
			inEntry = true
			continue
		}
		if last < 0 {
			return nil, 1
		}
		return blocks[:last], blocks[last].line
	}
	return blocks, 0
}

// mayEmptyItem reports whether content, an indented line inside an entry,
// may leave a list item without children: it ends in a list marker (an
// empty item), or it may be a link reference definition (goldmark removes
// the paragraph that holds it). goldmark closes every list, the entries'
// included, at the next non-blank line after such an item and a blank line,
// so the fast path leaves these lines to goldmark.
func mayEmptyItem(content []byte) bool {
	if bytes.Contains(content, []byte("]:")) {
		return true
	}
	t := bytes.TrimRight(content, " \t")
	t = t[bytes.LastIndexAny(t, " \t")+1:]
	switch {
	case len(t) == 1 && (t[0] == '-' || t[0] == '*' || t[0] == '+'):
		return true
	case len(t) >= 2 && len(t) <= 10 && (t[len(t)-1] == '.' || t[len(t)-1] == ')'):
		for _, c := range t[:len(t)-1] {
			if !isDigit(c) {
				return false
			}
		}
		return true
	}
	return false
}

// measureLine returns the number of leading spaces of line and whether it
// is blank (spaces only). clean is false when line has a byte that may
// change block structure in a way the fast path does not follow: a tab in
// the indentation, or any control byte (CR, NUL, form feed, ...).
func measureLine(line []byte) (indent int, blank, clean bool) {
	for indent < len(line) && line[indent] == ' ' {
		indent++
	}
	if indent < len(line) && line[indent] == '\t' {
		return indent, false, false
	}
	for _, c := range line[indent:] {
		if c < 0x20 && c != '\t' || c == 0x7f {
			return indent, false, false
		}
	}
	return indent, indent == len(line), true
}

// isFastEntryLine reports whether line is "- " and a digit, and its content
// parses as an entry head: it then starts a bullet item whose content is a
// paragraph (a time is neither an ordered list marker nor any other block).
func isFastEntryLine(line []byte) bool {
	if len(line) < 3 || line[0] != '-' || line[1] != ' ' || !isDigit(line[2]) {
		return false
	}
	body := line[2:]
	for len(body) > 0 && (body[len(body)-1] == ' ' || body[len(body)-1] == '\t') {
		body = body[:len(body)-1]
	}
	// Whether the head parses depends on "HH:MM" and the byte after it only.
	_, _, _, _, ok := parseEntryHead(string(body[:min(len(body), 6)]))
	return ok
}

// appendClean returns what to write after old so that the entries of chunk,
// which parses alone as want, follow it as top-level entries, and those
// entries as a reader will parse them afterwards, when old and chunk are both
// read whole by the fast path; ok is false otherwise. The blocks of old,
// separator and chunk are then those of old followed by those of chunk, so
// the new entries keep their lines within chunk, shifted, and old's entries
// keep theirs; only the new ids depend on old, through its entries with the
// same time and text (the "-2" of a repeat). Of old only the entry lines
// with a new entry's time are read past their first bytes.
func appendClean(old []byte, chunk string, want *Day) (add string, news []Entry, ok bool) {
	if len(old) == 0 || len(want.Notes) > 0 || want.Title != "" || !utf8.Valid(old) {
		return "", nil, false
	}
	if cb, rest := fastBlocks(newLineIndex([]byte(chunk))); rest != 0 || len(cb) != len(want.Entries) {
		return "", nil, false
	}
	lines := newLineIndex(old)
	blocks, rest := fastBlocks(lines)
	if rest != 0 {
		return "", nil, false
	}
	sep := separator(old)
	shift := bytes.Count(old, []byte{'\n'}) + strings.Count(sep, "\n") // lines before chunk's first
	news = slices.Clone(want.Entries)
	clocks := map[int]bool{}
	for _, e := range news {
		clocks[e.Hour*60+e.Minute] = true
	}
	seen := map[string]int{} // base ids of old entries at the new entries' times
	for i, b := range blocks {
		if !b.item {
			continue
		}
		h, m, _ := lineClock(lines.data[lines.start(b.line):lines.start(b.line+1)])
		if !clocks[h*60+m] {
			continue
		}
		end := lines.count()
		if i+1 < len(blocks) {
			end = blocks[i+1].line - 1
		}
		if e, ok := parseItem(lines, b.line, lines.trimBlank(b.line, end)); ok {
			seen[string(NewEntryID(want.Date, e.Hour, e.Minute, e.Text, 0))]++
		}
	}
	for i := range news {
		e := &news[i]
		e.Line += shift
		e.EndLine += shift
		e.ID = string(NewEntryID(want.Date, e.Hour, e.Minute, e.Text, 0))
		seen[e.ID]++
		if k := seen[e.ID]; k > 1 {
			e.ID += "-" + strconv.Itoa(k)
		}
	}
	return sep + chunk, news, true
}

// lineClock returns the time at the head of an entry line, "- HH:MM ..." or
// "- H:MM ...", as parseEntryHead reads it.
func lineClock(line []byte) (hour, minute int, ok bool) {
	if len(line) < 6 || line[0] != '-' || line[1] != ' ' {
		return 0, 0, false
	}
	s := line[2:]
	i := 0
	for i < len(s) && i < 2 && isDigit(s[i]) {
		i++
	}
	if i == 0 || len(s) < i+3 || s[i] != ':' || !isDigit(s[i+1]) || !isDigit(s[i+2]) {
		return 0, 0, false
	}
	if len(s) > i+3 && s[i+3] != ' ' && s[i+3] != '\t' && s[i+3] != '\n' && s[i+3] != '\r' {
		return 0, 0, false
	}
	hour, minute = atoi(string(s[:i])), atoi(string(s[i+1:i+3]))
	return hour, minute, hour <= 23 && minute <= 59
}
