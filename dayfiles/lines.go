package dayfiles

import (
	"io"
	"sort"
	"strings"
)

// lineIndex maps byte offsets of a file to 1-based line numbers and back.
type lineIndex struct {
	data []byte
	// str is data copied whole, or "": its lines are then substrings of it
	// (sharedLines), else each a copy of its own.
	str    string
	starts []int // starts[i] is the offset of line i+1
}

func newLineIndex(data []byte) *lineIndex {
	starts := make([]int, 1, len(data)/40+1)
	for i, c := range data {
		if c == '\n' && i+1 < len(data) {
			starts = append(starts, i+1)
		}
	}
	return &lineIndex{data: data, starts: starts}
}

// sharedLines is newLineIndex for a parse: its lines are substrings of one
// copy of data, so the texts of a day's entries share that copy instead of
// taking an allocation each, which is what a day kept parsed (the
// context's cache, today's chat day) costs. A reader of a few lines of a
// large file (an append's check) copies only those.
func sharedLines(data []byte) *lineIndex {
	x := newLineIndex(data)
	x.str = string(data)
	return x
}

func (x *lineIndex) count() int { return len(x.starts) }

// start returns the offset of line l; past the last line it is len(data).
func (x *lineIndex) start(l int) int {
	if l > len(x.starts) {
		return len(x.data)
	}
	return x.starts[l-1]
}

func (x *lineIndex) lineOf(off int) int {
	return sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off })
}

// get returns line l without its line ending.
func (x *lineIndex) get(l int) string {
	if l < 1 || l > len(x.starts) {
		return ""
	}
	var s string
	if x.str != "" {
		s = x.str[x.start(l):x.start(l+1)]
	} else {
		s = string(x.data[x.start(l):x.start(l+1)])
	}
	s = strings.TrimSuffix(s, "\n")
	s = strings.TrimSuffix(s, "\r")
	if l == 1 {
		s = strings.TrimPrefix(s, "\uFEFF")
	}
	return s
}

// trimBlank moves last back over blank lines, not before first-1.
func (x *lineIndex) trimBlank(first, last int) int {
	for last >= first && strings.TrimSpace(x.get(last)) == "" {
		last--
	}
	return last
}

// text returns lines first..last joined by "\n", with up to dedent leading
// spaces (a tab counts as enough) removed from each.
func (x *lineIndex) text(first, last, dedent int) string {
	var b strings.Builder
	for l := first; l <= last; l++ {
		s := x.get(l)
		if dedent > 0 {
			n := 0
			for n < len(s) && n < dedent && s[n] == ' ' {
				n++
			}
			if n < dedent && n < len(s) && s[n] == '\t' {
				n++
			}
			s = s[n:]
		}
		if l > first {
			b.WriteByte('\n')
		}
		b.WriteString(s)
	}
	return b.String()
}

func ioReadFull(r io.Reader, buf []byte) (int, error) { return io.ReadFull(r, buf) }

// SourceLines returns lines first to last (1-based, inclusive) of data as
// written, without the final line ending.
func SourceLines(data []byte, first, last int) string {
	s := string(data)
	for range first - 1 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return ""
		}
		s = s[i+1:]
	}
	end := 0
	for n := first; n <= last; n++ {
		i := strings.IndexByte(s[end:], '\n')
		if i < 0 {
			end = len(s)
			break
		}
		end += i + 1
	}
	return strings.TrimSuffix(strings.TrimSuffix(s[:end], "\n"), "\r")
}

// CountLines returns the number of lines in data; a last line without a
// line ending counts.
func CountLines(data []byte) int {
	n := strings.Count(string(data), "\n")
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}
