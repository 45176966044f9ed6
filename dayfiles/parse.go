package dayfiles

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/daybook/daybook/dayfiles/date"
)

// Day is a parsed day file.
type Day struct {
	Date    date.Date
	Path    string // as given to Parse
	Title   string // the title line without "# ", empty when missing
	Entries []Entry
	Notes   []Note
	src     digest // of the bytes it was parsed from: what ParseGrown grows it from
}

// blockParser parses block structure only: entries are list items, and inline
// markup does not change where a block starts or ends, so no inline parsers.
var blockParser = parser.NewParser(
	parser.WithBlockParsers(parser.DefaultBlockParsers()...),
)

// ParseFile reads and parses the day file at path for day d.
func ParseFile(path string, d date.Date) (*Day, error) {
	if err := checkNoLinks(path); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := CheckSize(path, fi.Size()); err != nil {
		return nil, err
	}
	data := make([]byte, fi.Size())
	if _, err := ioReadFull(f, data); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return Parse(path, d, data)
}

// Parse parses the content of a day file. It never fails on odd markdown: what
// is not an entry is a note. It fails only on content that is not UTF-8 or is
// over MaxFileSize, with an error that names path and the line.
func Parse(path string, d date.Date, data []byte) (*Day, error) {
	return parse(path, d, data, true)
}

// parse is Parse; with fast false it always asks goldmark for the block
// structure, which the tests use to check the fast path against.
func parse(path string, d date.Date, data []byte, fast bool) (*Day, error) {
	if err := check(path, data); err != nil {
		return nil, err
	}
	return parseChecked(path, d, data, fast), nil
}

// parseChecked is parse of data that check let through: it never fails.
func parseChecked(path string, d date.Date, data []byte, fast bool) *Day {
	day := &Day{Date: d, Path: path, src: digestOf(data)}
	if len(data) == 0 {
		return day
	}
	lines := sharedLines(data)
	var blocks []block
	rest := 1
	if fast {
		blocks, rest = fastBlocks(lines)
	}
	if rest > 0 {
		blocks = append(blocks, slowBlocks(day, lines, rest)...)
	}
	for i, b := range blocks {
		end := lines.count()
		if i+1 < len(blocks) {
			end = blocks[i+1].line - 1
		}
		end = lines.trimBlank(b.line, end)
		if end < b.line {
			continue
		}
		switch {
		case i == 0 && b.title && day.Title == "":
			day.Title = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(lines.get(b.line)), "#"))
		case b.item:
			if e, ok := parseItem(lines, b.line, end); ok {
				e.Day = d
				day.Entries = append(day.Entries, e)
				continue
			}
			fallthrough
		default:
			day.Notes = append(day.Notes, Note{Line: b.line, EndLine: end, Text: lines.text(b.line, end, 0)})
		}
	}
	setTags(day)
	assignIDs(day)
	return day
}

// setTags sets the tags of day's entries, all of them in one slice: a day
// kept parsed holds one allocation for its tags, not one an entry.
func setTags(day *Day) {
	var all []string
	ends := make([]int, len(day.Entries))
	for i, e := range day.Entries {
		all = appendTags(all, e.Text)
		ends[i] = len(all)
	}
	if len(all) == 0 {
		return
	}
	if cap(all) > len(all)+len(all)/8 {
		all = slices.Clone(all) // near exact: it is kept as long as the day
	}
	from := 0
	for i := range day.Entries {
		if ends[i] > from {
			day.Entries[i].Tags = all[from:ends[i]:ends[i]]
		}
		from = ends[i]
	}
}

// check refuses content Parse does not read: over MaxFileSize, not UTF-8,
// or with conflict markers, with an error that names path and the line.
func check(path string, data []byte) error {
	if err := CheckSize(path, int64(len(data))); err != nil {
		return err
	}
	if !utf8.Valid(data) {
		return fmt.Errorf("%s:%d: not UTF-8 text", path, firstInvalidLine(data))
	}
	if bytes.Contains(data, conflictOpen) {
		if line := ConflictLine(data); line > 0 {
			return &ConflictError{Path: path, Line: line}
		}
	}
	return nil
}

// slowBlocks parses the file behind lines from line from on with goldmark
// and returns its blocks. From line 1, front matter becomes the first note
// of day; from a later line, that line must start a top-level block.
func slowBlocks(day *Day, lines *lineIndex, from int) []block {
	off := lines.start(from)
	if from > 1 {
		return collectBlocks(blockParser.Parse(text.NewReader(bytes.Clone(lines.data[off:]))), lines, off)
	}
	// A working copy in which the byte-order mark and front matter are blanked
	// with spaces, so that offsets and line numbers stay those of the file.
	src := bytes.Clone(lines.data)
	if bytes.HasPrefix(src, []byte("\xEF\xBB\xBF")) {
		copy(src, "   ")
	}
	if end := frontMatterEnd(lines); end > 0 {
		day.Notes = append(day.Notes, Note{Line: 1, EndLine: end, Text: lines.text(1, end, 0)})
		for i := lines.start(1); i < lines.start(end+1); i++ {
			if src[i] != '\n' && src[i] != '\r' {
				src[i] = ' '
			}
		}
	}
	return collectBlocks(blockParser.Parse(text.NewReader(src)), lines, 0)
}

type block struct {
	line  int
	item  bool // an item of an unordered list: may be an entry
	title bool // a level-1 ATX heading: may be the title
}

// collectBlocks lists the top-level blocks of doc, with the items of top-level
// bullet lists as blocks of their own, by their first line. doc was parsed
// from the file's bytes from offset off on.
func collectBlocks(doc ast.Node, lines *lineIndex, off int) []block {
	var out []block
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if l, ok := n.(*ast.List); ok {
			for it := l.FirstChild(); it != nil; it = it.NextSibling() {
				if p := nodeStart(it); p >= 0 {
					out = append(out, block{line: lines.lineOf(off + p), item: !l.IsOrdered()})
				}
			}
			continue
		}
		p := nodeStart(n)
		if p < 0 {
			continue
		}
		p += off
		h, isHeading := n.(*ast.Heading)
		out = append(out, block{line: lines.lineOf(p), title: isHeading && h.Level == 1 && isATX(lines, p)})
	}
	return out
}

// nodeStart returns the byte offset where n starts, or -1.
func nodeStart(n ast.Node) int {
	if p := n.Pos(); p >= 0 {
		return p
	}
	if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
		return n.Lines().At(0).Start
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if p := nodeStart(c); p >= 0 {
			return p
		}
	}
	return -1
}

func isATX(lines *lineIndex, p int) bool {
	return strings.HasPrefix(strings.TrimLeft(lines.get(lines.lineOf(p)), " "), "#")
}

// parseItem reads lines first..last as a list item and returns it as an entry
// when its first line is "- HH:MM ...", without its Tags (see setTags).
func parseItem(lines *lineIndex, first, last int) (Entry, bool) {
	head := lines.get(first)
	indent := len(head) - len(strings.TrimLeft(head, " "))
	rest := head[indent:]
	if len(rest) < 2 || !strings.ContainsRune("-*+", rune(rest[0])) || (rest[1] != ' ' && rest[1] != '\t') {
		return Entry{}, false
	}
	body := strings.TrimLeft(rest[1:], " \t")
	hour, minute, kind, txt, ok := parseEntryHead(strings.TrimRight(body, " \t"))
	if !ok {
		return Entry{}, false
	}
	contentCol := len(head) - len(body)
	if last > first {
		txt += "\n" + lines.text(first+1, last, contentCol)
	}
	return Entry{
		Hour: hour, Minute: minute, Kind: kind,
		Text: txt, // its Tags: parseChecked's, all of a day's in one slice
		Line: first, EndLine: last,
	}, true
}

// assignIDs sets the ids of day's entries: their base ids are substrings
// of one string, as their texts are of the file's copy (a day kept parsed
// holds one allocation for them, not one an entry); a holder of ids that
// outlive the day (the vector store) copies them.
func assignIDs(day *Day) {
	seen := map[string]int{}
	buf := make([]byte, 0, len(day.Entries)*idBaseLen)
	for _, e := range day.Entries {
		buf = appendEntryID(buf, day.Date, e.Hour, e.Minute, e.Text)
	}
	ids := string(buf)
	fixed := len(ids) == len(day.Entries)*idBaseLen // else a year of more than four digits
	for i := range day.Entries {
		e := &day.Entries[i]
		base := ids[min(i*idBaseLen, len(ids)):min((i+1)*idBaseLen, len(ids))]
		if !fixed {
			base = string(NewEntryID(day.Date, e.Hour, e.Minute, e.Text, 0))
		}
		e.ID = withCount(base, &seen)
	}
}

// withCount returns the id of the next entry of base id base: base for the
// first, "base-n" for the n-th, counted in seen.
func withCount(base string, seen *map[string]int) string {
	(*seen)[base]++
	if n := (*seen)[base]; n > 1 {
		return base + "-" + strconv.Itoa(n)
	}
	return base
}

// frontMatterEnd returns the line that closes YAML front matter opened by
// "---" on line 1, or 0 when there is none.
func frontMatterEnd(lines *lineIndex) int {
	if strings.TrimRight(lines.get(1), " \t") != "---" {
		return 0
	}
	for l := 2; l <= lines.count(); l++ {
		if s := strings.TrimRight(lines.get(l), " \t"); s == "---" || s == "..." {
			return l
		}
	}
	return 0
}

func firstInvalidLine(data []byte) int {
	line := 1
	for len(data) > 0 {
		r, size := utf8.DecodeRune(data)
		if r == utf8.RuneError && size <= 1 {
			return line
		}
		if r == '\n' {
			line++
		}
		data = data[size:]
	}
	return line
}
