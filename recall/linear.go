package recall

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"math"
	"os"
	"slices"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
)

// DefaultLimit is how many results Linear returns when asked for none.
const DefaultLimit = 10

// Linear is recall's fallback: it scans the day files in r, scores each line
// by the query's terms (rarer terms weigh more, a line or entry with every
// term gets a bonus) and returns the best limit hits, best first and newest
// first among equal scores. A hit inside an entry is reported as the entry
// (level "entry", its id, its first line); a hit in free text as the line
// (level "line", id DATE:Lnn). Only the files that hold the best hits are
// parsed. A query without terms (only stop words, or empty once a temporal
// phrase was taken out) returns the newest entries of r.
func Linear(ctx context.Context, root string, query string, r date.Range, limit int, log *slog.Logger) ([]daybook.RecallResult, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if limit <= 0 {
		limit = DefaultLimit
	}
	files, err := dayfiles.ListPaths(root, r, log)
	if err != nil {
		return nil, fmt.Errorf("listing day files: %w", err)
	}
	terms := queryTerms(query)
	if len(terms) == 0 {
		return newest(ctx, files, limit, log)
	}
	s := newScanner(terms)
	var buf []byte
	for i := len(files) - 1; i >= 0; i-- {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		f := files[i]
		buf, err = dayfiles.ReadDay(buf, f)
		if err != nil {
			if os.IsNotExist(err) {
				continue // removed since listed
			}
			// One unreadable day (too big, unreadable) must not fail every
			// recall: name it and scan the rest.
			log.Warn("skipping day file in linear recall", "path", f.Path, "err", err)
			continue
		}
		s.scanFile(f, buf)
	}
	out, err := s.results(limit, log)
	if err != nil {
		return nil, err
	}
	stmts := make([]Statement, len(out))
	for i, r := range out {
		st := s.stmts[r.ID]
		st.ID, st.Score = r.ID, r.Score
		stmts[i] = st
	}
	return supersede(query, out, nil, stmts), nil
}

// lineHit is a line of a file with the terms found on it, one bit per term.
type lineHit struct {
	line   int
	mask   uint64
	strong uint64 // the terms of mask found as such, not only in longer words
}

// fileHits is a file with hits, its lines in file order.
type fileHits struct {
	file dayfiles.File
	hits []lineHit
}

// scanner gathers the hits of the terms over the files it is shown.
type scanner struct {
	terms []*term
	all   uint64 // every term's bit
	files []fileHits
	read  int   // files scanned
	df    []int // per term: files that hold it
	lower []byte
	marks []lineHit            // scratch: hits of one file before merging by line
	stmts map[string]Statement // the entries resolved, by id: for Supersede
}

func newScanner(terms []*term) *scanner {
	return &scanner{terms: terms, all: uint64(1)<<len(terms) - 1, df: make([]int, len(terms))}
}

// scanFile finds the terms in data, the content of f.
func (s *scanner) scanFile(f dayfiles.File, data []byte) {
	s.read++
	s.lower = lowerInto(s.lower, data)
	dayfiles.BlankAutoTags(s.lower) // labels, not words: #claude-code matches no "code"
	s.marks = s.marks[:0]
	var starts []int // line starts, built on the first hit
	for ti, t := range s.terms {
		found := false
		t.each(s.lower, func(at int, m match) {
			if starts == nil {
				starts = lineStarts(data)
			}
			line, _ := slices.BinarySearch(starts, at+1)
			h := lineHit{line: line, mask: 1 << ti}
			if m == same {
				h.strong = h.mask
			}
			s.marks = append(s.marks, h)
			found = true
		})
		if found {
			s.df[ti]++
		}
	}
	if len(s.marks) == 0 {
		return
	}
	slices.SortFunc(s.marks, func(a, b lineHit) int { return a.line - b.line })
	hits := make([]lineHit, 0, len(s.marks))
	for _, m := range s.marks {
		if n := len(hits); n > 0 && hits[n-1].line == m.line {
			hits[n-1].mask |= m.mask
			hits[n-1].strong |= m.strong
			continue
		}
		hits = append(hits, m)
	}
	s.files = append(s.files, fileHits{file: f, hits: hits})
}

// score weighs the terms of mask by their idf over the files read (those
// found only in longer words, not in strong, at index.ExpandBoost of it),
// with a bonus of half again when mask holds every term of a query of
// several.
func (s *scanner) score(mask, strong uint64, idf []float64) float64 {
	var sc float64
	for ti := range s.terms {
		switch {
		case strong&(1<<ti) != 0:
			sc += idf[ti]
		case mask&(1<<ti) != 0:
			sc += index.ExpandBoost * idf[ti]
		}
	}
	if mask == s.all && len(s.terms) > 1 {
		sc *= linearAllTermsBonus
	}
	return sc
}

// idf is the BM25 inverse document frequency of each term over the files read.
func (s *scanner) idf() []float64 {
	idf := make([]float64, len(s.terms))
	n := float64(s.read)
	for ti, df := range s.df {
		idf[ti] = math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
	}
	return idf
}

// candidate is a hit line ranked before its file is parsed.
type candidate struct {
	fh    *fileHits
	hit   lineHit
	score float64
}

// results ranks the hit lines, parses the files of the best of them to find
// their entries, and returns the best limit entries and lines.
func (s *scanner) results(limit int, log *slog.Logger) ([]daybook.RecallResult, error) {
	idf := s.idf()
	var cands []candidate
	for i := range s.files {
		fh := &s.files[i]
		for _, h := range fh.hits {
			cands = append(cands, candidate{fh: fh, hit: h, score: s.score(h.mask, h.strong, idf)})
		}
	}
	slices.SortFunc(cands, func(a, b candidate) int {
		return cmpNewest(a.score, b.score, a.fh.file.Date, b.fh.file.Date, a.hit.line, b.hit.line)
	})
	// Entries gather the terms of all their lines, so a few more candidates
	// than asked for are resolved before the final ranking.
	pool := min(len(cands), 4*limit+8)
	parsed := map[*fileHits]*dayfiles.Day{}
	seen := map[string]bool{}
	var out []daybook.RecallResult
	for _, c := range cands[:pool] {
		day, ok := parsed[c.fh]
		if !ok {
			var err error
			day, err = dayfiles.ParseFile(c.fh.file.Path, c.fh.file.Date)
			if err != nil {
				// The scan saw the file: report it by name and go on with the rest.
				log.Warn("skipping day file in linear recall", "path", c.fh.file.Path, "err", err)
			}
			parsed[c.fh] = day
		}
		res, mask, strong := s.resolve(c, day)
		if seen[res.ID] {
			continue
		}
		seen[res.ID] = true
		res.Score = s.score(mask, strong, idf)
		res.Snippet = s.mark(res.Snippet)
		out = append(out, res)
	}
	slices.SortFunc(out, func(a, b daybook.RecallResult) int {
		return cmpNewest(a.Score, b.Score, date.MustParse(a.Period), date.MustParse(b.Period), a.Line, b.Line)
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// cmpNewest orders by score, highest first, then newest day and latest line.
func cmpNewest(sa, sb float64, da, db date.Date, la, lb int) int {
	if c := cmp.Compare(sb, sa); c != 0 {
		return c
	}
	if c := db.Compare(da); c != 0 {
		return c
	}
	return cmp.Compare(lb, la)
}

// resolve turns a hit line into the entry that holds it, with the terms of
// all the entry's hit lines, or into a line result. day may be nil when the
// file could not be parsed.
func (s *scanner) resolve(c candidate, day *dayfiles.Day) (res daybook.RecallResult, mask, strong uint64) {
	d := c.fh.file.Date
	res = daybook.RecallResult{Period: d.String(), Path: dayfiles.RelPath(d), Line: c.hit.line}
	if day != nil {
		for _, e := range day.Entries {
			if c.hit.line < e.Line || c.hit.line > e.EndLine {
				continue
			}
			for _, h := range c.fh.hits {
				if h.line >= e.Line && h.line <= e.EndLine {
					mask |= h.mask
					strong |= h.strong
				}
			}
			res.ID, res.Level, res.Line = e.ID, "entry", e.Line
			res.Snippet = entrySnippet(e)
			if s.stmts == nil {
				s.stmts = map[string]Statement{}
			}
			s.stmts[e.ID] = Statement{Text: e.Text, Kind: string(e.Kind), Tags: e.Tags}
			return res, mask, strong
		}
	}
	res.ID, res.Level = dayfiles.LineID(d, c.hit.line), string(date.LevelLine)
	res.Snippet = lineText(c.fh.file.Path, c.hit.line, day)
	return res, c.hit.mask, c.hit.strong
}

// newest returns the newest entries of files, for a query without terms.
func newest(ctx context.Context, files []dayfiles.File, limit int, log *slog.Logger) ([]daybook.RecallResult, error) {
	var out []daybook.RecallResult
	for i := len(files) - 1; i >= 0 && len(out) < limit; i-- {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		f := files[i]
		day, err := dayfiles.ParseFile(f.Path, f.Date)
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			log.Warn("skipping day file in linear recall", "path", f.Path, "err", err)
			continue
		}
		for j := len(day.Entries) - 1; j >= 0 && len(out) < limit; j-- {
			e := day.Entries[j]
			out = append(out, daybook.RecallResult{
				ID: e.ID, Level: "entry", Period: f.Date.String(), Path: dayfiles.RelPath(f.Date),
				Line: e.Line, Snippet: entrySnippet(e),
			})
		}
	}
	return out, nil
}

// maxSnippet is the longest snippet in bytes before it is cut at a word.
const maxSnippet = 300

// entrySnippet is "09:14 [decision] text" on one line.
func entrySnippet(e dayfiles.Entry) string {
	s := e.Clock() + " "
	if e.Kind != dayfiles.KindNote {
		s += "[" + string(e.Kind) + "] "
	}
	return s + string(bytes.Join(bytes.Fields([]byte(e.Text)), []byte(" ")))
}

// lineText returns line n of the parsed day, or of the file when day is nil.
func lineText(path string, n int, day *dayfiles.Day) string {
	if day == nil {
		data, err := os.ReadFile(path)
		if err != nil {
			return ""
		}
		starts := lineStarts(data)
		if n < 1 || n > len(starts) {
			return ""
		}
		end := len(data)
		if n < len(starts) {
			end = starts[n]
		}
		return string(bytes.TrimRight(data[starts[n-1]:end], "\r\n"))
	}
	for _, note := range day.Notes {
		if n >= note.Line && n <= note.EndLine {
			lines := bytes.Split([]byte(note.Text), []byte("\n"))
			if k := n - note.Line; k < len(lines) {
				return string(bytes.TrimSpace(lines[k]))
			}
		}
	}
	return "# " + day.Title
}

// lineStarts returns the offset of each line of data; line n starts at
// starts[n-1].
func lineStarts(data []byte) []int {
	starts := make([]int, 1, bytes.Count(data, []byte{'\n'})+1)
	for i, c := range data {
		if c == '\n' && i+1 < len(data) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lowerInto writes data with ASCII letters lower-cased into buf.
func lowerInto(buf, data []byte) []byte {
	if cap(buf) < len(data) {
		buf = make([]byte, len(data), len(data)+len(data)/4)
	}
	buf = buf[:len(data)]
	for i, c := range data {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return buf
}
