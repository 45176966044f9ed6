package dayfiles

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"unicode"
	"unicode/utf8"
)

// MaxPattern is the longest pattern Scan accepts.
const MaxPattern = 4 << 10

// Matcher finds the matching lines of a file's content.
type Matcher struct {
	lit  []byte // literal, lower-cased when fold
	fold bool
	re   *regexp.Regexp
}

// NewMatcher compiles pattern: a literal, case-insensitive unless it holds an
// upper-case letter (smart case, as ripgrep -S), or with regex a Go regular
// expression (RE2 syntax).
func NewMatcher(pattern string, regex bool) (*Matcher, error) {
	switch {
	case pattern == "":
		return nil, fmt.Errorf("empty pattern")
	case len(pattern) > MaxPattern:
		return nil, fmt.Errorf("pattern is %d bytes, over the limit of %d", len(pattern), MaxPattern)
	case !utf8.ValidString(pattern):
		return nil, fmt.Errorf("pattern is not UTF-8")
	}
	if regex {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return nil, fmt.Errorf("bad regex: %w", err)
		}
		return &Matcher{re: re}, nil
	}
	fold := true
	for _, r := range pattern {
		if unicode.IsUpper(r) {
			fold = false
		}
	}
	if fold && !isASCII(pattern) {
		// Non-ASCII case folding: let the regexp engine do it right.
		return &Matcher{re: regexp.MustCompile("(?i)" + regexp.QuoteMeta(pattern))}, nil
	}
	return &Matcher{lit: []byte(pattern), fold: fold}, nil
}

// Lines calls fn with the 1-based number and content (no line ending) of
// each line of data that matches, in file order, until fn returns false.
func (m *Matcher) Lines(data []byte, fn func(n int, line []byte) bool) {
	hay := data
	if m.fold {
		hay = lowerASCII(data)
	}
	line, lineStart, pos := 1, 0, 0
	for pos < len(hay) {
		var at int
		if m.re != nil {
			loc := m.re.FindIndex(hay[pos:])
			if loc == nil {
				return
			}
			at = pos + loc[0]
		} else {
			i := bytes.Index(hay[pos:], m.lit)
			if i < 0 {
				return
			}
			at = pos + i
		}
		line += bytes.Count(data[lineStart:at], []byte{'\n'})
		if nl := bytes.LastIndexByte(data[:at], '\n'); nl >= 0 {
			lineStart = nl + 1
		} else {
			lineStart = 0
		}
		end := bytes.IndexByte(data[at:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += at
		}
		if !fn(line, bytes.TrimSuffix(data[lineStart:end], []byte{'\r'})) {
			return
		}
		pos, lineStart = end+1, end+1
		line++
	}
}

// ScanMatch is one line found by Scan.
type ScanMatch struct {
	File File
	Line int
	Text string
}

// Scan reads files newest first and returns their matching lines, newest
// first (the last line of the newest day first), at most limit of them when
// limit > 0. It reports how many files it read.
func Scan(files []File, m *Matcher, limit int) (matches []ScanMatch, read int, err error) {
	var buf []byte
	for i := len(files) - 1; i >= 0; i-- {
		f := files[i]
		buf, err = readInto(buf, f.Path)
		if err != nil {
			if os.IsNotExist(err) {
				continue // removed since listed
			}
			return matches, read, fmt.Errorf("reading %s: %w", f.Path, err)
		}
		read++
		start := len(matches)
		m.Lines(buf, func(n int, line []byte) bool {
			matches = append(matches, ScanMatch{File: f, Line: n, Text: string(line)})
			return true
		})
		reverse(matches[start:])
		if limit > 0 && len(matches) >= limit {
			return matches[:limit], read, nil
		}
	}
	return matches, read, nil
}

func readInto(buf []byte, path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return buf, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return buf, err
	}
	n := int(fi.Size())
	if cap(buf) < n {
		buf = make([]byte, n, n+n/4)
	}
	buf = buf[:n]
	got, err := ioReadFull(f, buf)
	return buf[:got], ignoreShort(err)
}

func ignoreShort(err error) error {
	if err != nil && err.Error() == "unexpected EOF" {
		return nil // the file shrank since Stat
	}
	return err
}

func reverse[T any](s []T) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func lowerASCII(data []byte) []byte {
	out := make([]byte, len(data))
	for i, c := range data {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}
