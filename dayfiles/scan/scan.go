package scan

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"regexp"
	"sync"
	"unicode"
	"unicode/utf8"
)

// MaxPattern is the longest pattern Scan accepts.
const MaxPattern = 4 << 10

// Matcher finds the matching lines of a file's content.
type Matcher struct {
	re *regexp.Regexp

	// A literal: lit, lower-cased when fold, is found by looking for its
	// rarest byte lit[rare] in both cases (lo, up) with bytes.IndexByte,
	// then comparing the bytes around each hit. The file is never copied.
	lit    []byte
	fold   bool
	rare   int
	lo, up byte
	rare2  int  // the next rarest byte's index, for pairIndex
	pair   bool // search with pairIndex (pair.go)
}

// NewMatcher compiles pattern: a literal, case-insensitive unless it holds an
// upper-case letter (smart case, as ripgrep -S), or with regex a Go regular
// expression (RE2 syntax) in which ^ and $ match at the start and end of
// each line. A match that spans lines is reported on the line it starts on.
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
		if _, err := regexp.Compile(pattern); err != nil {
			return nil, fmt.Errorf("bad regex: %w", err) // names the pattern as given
		}
		// (?m): ^ and $ match at line boundaries, as in grep.
		return &Matcher{re: regexp.MustCompile("(?m)" + pattern)}, nil
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
	m := &Matcher{lit: []byte(pattern), fold: fold}
	m.rare = rarestByte(m.lit, fold)
	m.lo, m.up = m.lit[m.rare], m.lit[m.rare]
	if fold && 'a' <= m.lo && m.lo <= 'z' {
		m.up = m.lo - 'a' + 'A'
	}
	if fold && len(m.lit) >= 2 && byteRarity(m.lo, true) < pairBelow {
		m.pair = true
		m.rare2 = rarestByteBut(m.lit, fold, m.rare)
	}
	return m, nil
}

// literalFinder finds m's literal in one file's data. It keeps the next
// position of each case variant of the rare byte so that each stretch of
// data is searched once per variant, not once per candidate.
type literalFinder struct {
	m      *Matcher
	data   []byte
	lo, up cursor
}

// cursor caches where a byte next occurs: at is its first position at or
// after from, or -1 when there is none.
type cursor struct{ at, from int }

func newLiteralFinder(m *Matcher, data []byte) *literalFinder {
	none := cursor{from: len(data) + 1} // valid for no position: forces a search
	return &literalFinder{m: m, data: data, lo: none, up: none}
}

// next returns the first position of b at or after p, or -1. Calls must
// come with p increasing.
func (c *cursor) next(data []byte, b byte, p int) int {
	if c.from <= p && (c.at < 0 || c.at >= p) {
		return c.at
	}
	c.from = p
	if i := bytes.IndexByte(data[p:], b); i >= 0 {
		c.at = p + i
	} else {
		c.at = -1
	}
	return c.at
}

// index returns the offset of the first match at or after from, or -1.
func (f *literalFinder) index(from int) int {
	if f.m.pair {
		return f.pairIndex(from)
	}
	m, n := f.m, len(f.m.lit)
	pos := from + m.rare
	for pos < len(f.data) {
		hit := f.lo.next(f.data, m.lo, pos)
		if m.up != m.lo {
			if u := f.up.next(f.data, m.up, pos); u >= 0 && (hit < 0 || u < hit) {
				hit = u
			}
		}
		if hit < 0 {
			return -1
		}
		start := hit - m.rare
		if start+n <= len(f.data) && m.equal(f.data[start:start+n]) {
			return start
		}
		pos = hit + 1
	}
	return -1
}

func (m *Matcher) equal(b []byte) bool {
	if !m.fold {
		return bytes.Equal(b, m.lit)
	}
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != m.lit[i] {
			return false
		}
	}
	return true
}

// Lines calls fn with the 1-based number and content (no line ending) of
// each line of data that matches, in file order, until fn returns false.
func (m *Matcher) Lines(data []byte, fn func(n int, line []byte) bool) {
	var lf *literalFinder
	if m.re == nil {
		lf = newLiteralFinder(m, data)
	}
	line, counted, pos := 1, 0, 0 // line is the number of the line holding offset counted
	for pos < len(data) {
		var at int
		if lf != nil {
			if at = lf.index(pos); at < 0 {
				return
			}
		} else {
			loc := m.re.FindIndex(data[pos:])
			if loc == nil {
				return
			}
			at = pos + loc[0]
		}
		line += bytes.Count(data[counted:at], []byte{'\n'})
		start := bytes.LastIndexByte(data[:at], '\n') + 1
		end := bytes.IndexByte(data[at:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += at
		}
		if !fn(line, bytes.TrimSuffix(data[start:end], []byte{'\r'})) {
			return
		}
		pos, counted = end+1, end+1
		line++
	}
}

// ScanMatch is one line found by Scan.
type ScanMatch struct {
	File File
	Line int
	Text string
}

// scanWorkers is how many goroutines read and search files ahead of the
// one that collects their results in order; each takes scanChunk files at a
// time, newest first, so that handing results over costs little.
const (
	scanWorkers = 2
	scanChunk   = 8
)

// scanResult is what a worker found in one file.
type scanResult struct {
	matches  []ScanMatch // newest (last) line first
	skipped  bool        // the file was removed since it was listed
	conflict *ConflictError
	err      error
}

// Scanned is what ScanFiles found: the matching lines, how many files it
// read, and the files it left out because they hold conflict markers.
type Scanned struct {
	Matches   []ScanMatch
	Read      int
	Conflicts []*ConflictError // newest first
}

// ScanFiles reads files newest first and returns their matching lines,
// newest first (the last line of the newest day first), at most limit of
// them when limit > 0, and how many files it read. Workers read and search
// chunks of files ahead while the results are taken in order, so the order
// and the limit are exact; the workers stop soon after the limit is
// reached. It names the files it left out because they hold conflict
// markers (two versions at once: none is content until a person resolves
// them), so that a caller can say so.
func ScanFiles(files []File, m *Matcher, limit int) (Scanned, error) {
	var s Scanned
	// Chunks grow from one file to scanChunk: a small limit is met after
	// reading little more than it needs, a full scan hands over few results.
	var bounds []int // chunk c covers files bounds[c] to bounds[c+1]-1, newest first
	for k, size := 0, 1; k < len(files); k += size {
		bounds = append(bounds, k)
		if len(bounds)%2 == 0 {
			size = min(scanChunk, 2*size) // 1, 1, 2, 2, 4, 4, 8, 8, 8...
		}
	}
	bounds = append(bounds, len(files))
	chunks := len(bounds) - 1
	workers := min(scanWorkers, chunks)
	done := make(chan struct{})
	outs := make([]chan []scanResult, workers)
	var wg sync.WaitGroup
	for w := range workers {
		outs[w] = make(chan []scanResult, 1)
		wg.Go(func() {
			defer close(outs[w])
			var buf []byte
			for c := w; c < chunks; c += workers {
				rs := make([]scanResult, 0, bounds[c+1]-bounds[c])
				for k := bounds[c]; k < bounds[c+1]; k++ {
					var r scanResult
					r, buf = scanFile(files[len(files)-1-k], m, buf)
					rs = append(rs, r)
				}
				select {
				case outs[w] <- rs:
				case <-done:
					return
				}
			}
		})
	}
	defer wg.Wait()
	defer close(done)
	for c := range chunks {
		for _, r := range <-outs[c%workers] {
			switch {
			case r.conflict != nil:
				s.Conflicts = append(s.Conflicts, r.conflict)
				continue
			case r.skipped:
				continue
			case r.err != nil:
				return s, r.err
			}
			s.Read++
			s.Matches = append(s.Matches, r.matches...)
			if limit > 0 && len(s.Matches) >= limit {
				s.Matches = s.Matches[:limit]
				return s, nil
			}
		}
	}
	return s, nil
}

// scanFile reads f into buf and returns its matching lines, last first.
func scanFile(f File, m *Matcher, buf []byte) (scanResult, []byte) {
	buf, err := ReadInto(buf, f)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return scanResult{skipped: true}, buf
	case err != nil:
		return scanResult{err: fmt.Errorf("reading %s: %w", f.Path, err)}, buf
	case bytes.Contains(buf, conflictOpen):
		if line := ConflictLine(buf); line > 0 {
			// Two versions at once: none is content until resolved.
			return scanResult{skipped: true, conflict: &ConflictError{Path: f.Path, Line: line}}, buf
		}
	}
	var r scanResult
	m.Lines(buf, func(n int, line []byte) bool {
		r.matches = append(r.matches, ScanMatch{File: f, Line: n, Text: string(line)})
		return true
	})
	reverse(r.matches)
	return r, buf
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

// rarestByte returns the index of the byte of lit that is least frequent in
// typical day files, so that searching for it finds few false candidates.
// With fold, a letter counts in both cases.
func rarestByte(lit []byte, fold bool) int { return rarestByteBut(lit, fold, -1) }

// rarestByteBut is rarestByte leaving out index skip.
func rarestByteBut(lit []byte, fold bool, skip int) int {
	best, bestRank := -1, -1
	for i, c := range lit {
		if r := byteRarity(c, fold); i != skip && r > bestRank {
			best, bestRank = i, r
		}
	}
	return best
}

// pairBelow is the rarity under which a case-insensitive literal's rarest
// byte is common enough for pairIndex to beat bytes.IndexByte: the letters
// e to p of the frequency table (rarity 8 + index, byteRarity). Rarer
// bytes (g, w, y, ..., z, digits, punctuation) leave IndexByte long
// stretches to skip.
const pairBelow = 8 + 16

// byteRarity ranks how rare c is in English markdown: higher is rarer.
func byteRarity(c byte, fold bool) int {
	const letters = "etaoinsrhldcumfpgwybvkxjqz" // most to least frequent
	switch {
	case 'a' <= c && c <= 'z':
		i := bytes.IndexByte([]byte(letters), c)
		if !fold {
			return 10 + i // lower case letters are common in either case
		}
		return 8 + i
	case 'A' <= c && c <= 'Z':
		return 60 + bytes.IndexByte([]byte(letters), c-'A'+'a') // upper case is rare
	case c == ' ' || c == '\n':
		return 0
	case '0' <= c && c <= '9':
		return 30
	case c == '-' || c == '.' || c == ',' || c == ':' || c == '#':
		return 20
	default:
		return 50
	}
}
