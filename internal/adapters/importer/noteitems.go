package importer

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// noteParser reads the blocks of daily notes as CommonMark, and no more:
// an item's text is taken from the note as written, so inlines (links,
// emphasis) are not parsed, and a link reference definition stays a block
// of text. It holds no state between Parse calls.
var noteParser = parser.NewParser(parser.WithBlockParsers(parser.DefaultBlockParsers()...))

// noteItems splits a daily note into entries of its day, in the note's
// order: the YAML front matter as written (without its --- lines); each
// item of a list at the top, with its sub-items, without its marker; each
// other block (a paragraph, a quote, a code block) as written. A heading is
// not an entry: the headings an item is under are its context, written
// before its text ("Work › Ideas: text"), except a heading that only names
// the note's day ("# Friday", "# 2024-03-01"). A heading with nothing under
// it is an entry of its own, so that no text of the note is lost. from
// names the note; each entry's From is from:line.
func noteItems(src []byte, day time.Time, stem, from string) []Entry {
	body, fm, fmLines := frontMatter(bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n")))
	s := &noteSplitter{day: day, stem: stem, from: from, body: body, fmLines: fmLines}
	if fm != "" {
		s.add(2, fm)
	}
	blocks, starts := topBlocks(noteParser.Parse(text.NewReader(body)), body)
	for i, n := range blocks {
		start, end := starts[i], len(body)
		if i+1 < len(blocks) {
			end = max(starts[i+1], start)
		}
		s.block(n, start, end)
	}
	s.pop(0)
	return s.out
}

// noteSplitter is the state of one noteItems: the note's body, the
// headings above the block at hand, and the entries so far.
type noteSplitter struct {
	day      time.Time
	stem     string
	from     string
	body     []byte // the note without its front matter
	fmLines  int    // the lines the front matter took
	headings []heading
	out      []Entry
}

// heading is a heading above the block at hand.
type heading struct {
	level int
	title string // "" for a heading that only names the day
	used  bool   // an entry was written under it
	pos   int
}

// topBlocks returns the top-level blocks of doc, parsed from body, with
// the offset each starts at: a block runs from its line to the next
// block's, so that text the parser keeps in no node (a rule's underline,
// blank lines) is not lost.
func topBlocks(doc ast.Node, body []byte) (blocks []ast.Node, starts []int) {
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		start := len(body)
		if len(starts) > 0 {
			start = starts[len(starts)-1] // a block without a position starts where the last did
		}
		if n.Pos() >= 0 {
			start = lineStart(body, n.Pos())
		}
		blocks, starts = append(blocks, n), append(starts, start)
	}
	return blocks, starts
}

// block splits the top-level block n, body[start:end], into entries: a
// heading becomes the context of what follows, up to the next of its
// level or above; a list gives an entry per item; a rule nothing; any
// other block one entry as written.
func (s *noteSplitter) block(n ast.Node, start, end int) {
	switch n := n.(type) {
	case *ast.Heading:
		s.pop(n.Level)
		title := headingTitle(n, s.body)
		if namesDay(title, s.day, s.stem) {
			title = ""
		}
		s.headings = append(s.headings, heading{level: n.Level, title: title, pos: n.Pos()})
	case *ast.ThematicBreak:
		// a rule separates; it holds no text
	case *ast.List:
		for it := n.FirstChild(); it != nil; it = it.NextSibling() {
			itEnd := end
			if next := it.NextSibling(); next != nil && next.Pos() >= 0 {
				itEnd = lineStart(s.body, next.Pos())
			}
			if c := it.FirstChild(); c != nil && c.Pos() >= start && c.Pos() <= itEnd {
				s.item(c.Pos(), dedent(s.body[c.Pos():itEnd], c.Pos()-lineStart(s.body, c.Pos())))
			}
		}
	default:
		s.item(start, string(s.body[start:end]))
	}
}

// add adds an entry of text, trimmed, from the note's line; none for
// blank text.
func (s *noteSplitter) add(line int, text string) {
	if text = strings.TrimSpace(text); text != "" {
		s.out = append(s.out, Entry{At: s.day, Local: true, Text: text, From: fmt.Sprintf("%s:%d", s.from, line)})
	}
}

// line is the note's line of the body's offset off.
func (s *noteSplitter) line(off int) int {
	return s.fmLines + 1 + bytes.Count(s.body[:off], []byte{'\n'})
}

// prefix is the context of an item: the titles of the headings above it,
// "Work › Ideas: "; "" under none.
func (s *noteSplitter) prefix() string {
	var names []string
	for _, h := range s.headings {
		if h.title != "" {
			names = append(names, h.title)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return strings.Join(names, " › ") + ": "
}

// item adds text, at the body's offset off, as an entry under its
// headings, which then have something under them.
func (s *noteSplitter) item(off int, text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	s.add(s.line(off), s.prefix()+text)
	s.markUsed()
}

// pop closes the headings of level or deeper: one with nothing under it
// is, with those above it, an entry of its own.
func (s *noteSplitter) pop(level int) {
	for len(s.headings) > 0 && s.headings[len(s.headings)-1].level >= level {
		h := s.headings[len(s.headings)-1]
		if !h.used && h.title != "" {
			// Nothing under it: the heading, with those above it, is the entry.
			s.add(s.line(h.pos), strings.TrimSuffix(s.prefix(), ": "))
			s.markUsed()
		}
		s.headings = s.headings[:len(s.headings)-1]
	}
}

// markUsed marks every open heading as having an entry under it.
func (s *noteSplitter) markUsed() {
	for i := range s.headings {
		s.headings[i].used = true
	}
}

// frontMatter splits a note's YAML front matter ("---" lines around it, at
// the very start) from its body: the body, the front matter's lines
// without the fences, and how many lines the front matter took.
func frontMatter(src []byte) (body []byte, fm string, lines int) {
	if !bytes.HasPrefix(src, []byte("---\n")) && !bytes.HasPrefix(src, []byte("---\r\n")) {
		return src, "", 0
	}
	rest := src[bytes.IndexByte(src, '\n')+1:]
	for off := 0; off < len(rest); {
		nl := bytes.IndexByte(rest[off:], '\n')
		l := rest[off:]
		if nl >= 0 {
			l = rest[off : off+nl]
		}
		if strings.TrimRight(string(l), " \t\r") == "---" {
			next := len(rest)
			if nl >= 0 {
				next = off + nl + 1
			}
			fm := string(rest[:off])
			return rest[next:], fm, 2 + strings.Count(fm, "\n")
		}
		if nl < 0 {
			break
		}
		off += nl + 1
	}
	return src, "", 0 // no closing ---: not front matter
}

// lineStart is the offset of the start of the line holding off.
func lineStart(b []byte, off int) int {
	if off < 0 {
		return 0
	}
	return bytes.LastIndexByte(b[:off], '\n') + 1
}

// dedent returns b with up to col leading spaces taken off each line after
// the first: a list item's text without the indent that put it under its
// marker, its sub-items still indented under it.
func dedent(b []byte, col int) string {
	lines := strings.Split(string(b), "\n")
	for i := 1; i < len(lines); i++ {
		l := lines[i]
		k := 0
		for k < col && k < len(l) && l[k] == ' ' {
			k++
		}
		if k < col && k < len(l) && l[k] == '\t' {
			k++ // a tab indents to the item's text too
		}
		lines[i] = l[k:]
	}
	return strings.Join(lines, "\n")
}

// headingTitle is a heading's text as written, on one line, without a
// colon at its end.
func headingTitle(h *ast.Heading, src []byte) string {
	var parts []string
	for i := 0; i < h.Lines().Len(); i++ {
		seg := h.Lines().At(i)
		parts = append(parts, strings.TrimSpace(string(seg.Value(src))))
	}
	return strings.TrimRight(strings.Join(parts, " "), ": ")
}

// namesDay reports a heading that only names the note's day, in any of
// the usual ways: "Friday", "2024-03-01", "Friday, 1 March 2024", "Fri
// Mar 1st", the note's file name.
func namesDay(title string, day time.Time, stem string) bool {
	if title == "" || strings.EqualFold(title, stem) {
		return true
	}
	names := map[string]bool{}
	for _, s := range []string{day.Weekday().String(), day.Month().String()} {
		names[strings.ToLower(s)] = true
		names[strings.ToLower(s[:3])] = true
	}
	nums := map[int]bool{day.Year(): true, int(day.Month()): true, day.Day(): true, day.Year() % 100: true}
	words := strings.FieldsFunc(strings.ToLower(title), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(words) == 0 {
		return false
	}
	for _, w := range words {
		d := strings.TrimRight(w, "stndrh") // 1st, 2nd, 3rd, 4th
		if n, err := strconv.Atoi(d); err == nil && d != "" && nums[n] {
			continue
		}
		if !names[w] {
			return false
		}
	}
	return true
}
