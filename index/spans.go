package index

import (
	"slices"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
)

// The index keeps no term vectors (format 3): they held every token's
// position and byte range, a sixth of the index, only for the spans of the
// few hits a recall returns. Those spans are found instead in the hits' text
// as bleve found them: the text is cut into tokens by the same tokenizer,
// and a token is a match when the text analyzer (possessive, lower case,
// stop words, Porter stem) makes it one of the query's terms. Porter stems
// change a word's end only, so a token whose first two letters no term
// starts with is passed over unanalyzed, and each distinct token is
// analyzed once: a day summary of 1,000 tokens costs a few dozen analyses.

// spanner finds the spans of one query's terms in texts.
type spanner struct {
	tok     analysis.Tokenizer
	filters []analysis.TokenFilter
	whole   analysis.Analyzer // when the analyzer is not a tokenizer and filters
	terms   map[string]bool
	longer  []string        // query words that find longer words (expansions)
	heads   map[string]bool // the first two bytes of each term
	ascii   *[128][129]bool // heads of ASCII letters: [first][second], [first][128] for a one-letter term
	memo    map[string]bool // token → whether it analyzes to a term
}

// newSpanner returns the spanner of query, nil when the index has no text
// analyzer (it always has) or the query no term.
func (t *TextIndex) newSpanner(query string) *spanner {
	a := t.bl.Mapping().AnalyzerNamed(en.AnalyzerName)
	if a == nil {
		return nil
	}
	s := &spanner{terms: map[string]bool{}, heads: map[string]bool{}, memo: map[string]bool{}}
	for _, t := range a.Analyze([]byte(query)) {
		s.terms[string(t.Term)] = true
		s.heads[string(t.Term[:min(2, len(t.Term))])] = true
	}
	s.longer = expansions(query)
	for _, w := range s.longer {
		s.heads[w[:min(2, len(w))]] = true
	}
	if len(s.terms) == 0 && len(s.longer) == 0 {
		return nil
	}
	s.ascii = new([128][129]bool)
	for h := range s.heads {
		switch {
		case len(h) == 1 && h[0] < 0x80:
			s.ascii[h[0]][128] = true
		case len(h) == 2 && h[0] < 0x80 && h[1] < 0x80:
			s.ascii[h[0]][h[1]] = true
		}
	}
	if d, ok := a.(*analysis.DefaultAnalyzer); ok && len(d.CharFilters) == 0 {
		s.tok, s.filters = d.Tokenizer, d.TokenFilters
	} else {
		s.whole = a
	}
	return s
}

// spans returns the byte ranges of text's tokens that are query terms, in
// order.
func (s *spanner) spans(text string) []Span {
	if s == nil || text == "" {
		return nil
	}
	var out []Span
	if s.whole != nil {
		for _, t := range s.whole.Analyze([]byte(text)) {
			if s.isTerm(string(t.Term)) {
				out = append(out, Span{t.Start, t.End})
			}
		}
		slices.SortFunc(out, func(a, b Span) int { return a.Start - b.Start })
		return out
	}
	// A token never spans white space, so the text is cut at it and only
	// the pieces that may hold a term go through the tokenizer, which is
	// most of the cost: a piece with a letter that is not ASCII, or a word
	// (a run of letters, digits and '_') whose first two letters start a term.
	b := []byte(text)
	for i := 0; i < len(b); {
		if isSpace(b[i]) {
			i++
			continue
		}
		j := i
		for j < len(b) && !isSpace(b[j]) {
			j++
		}
		if s.worth(b[i:j]) {
			for _, t := range s.tok.Tokenize(b[i:j]) {
				if !s.maybe(t.Term) {
					continue
				}
				hit, ok := s.memo[string(t.Term)]
				if !ok {
					hit = s.analyze(t.Term)
					s.memo[string(t.Term)] = hit
				}
				if hit {
					out = append(out, Span{i + t.Start, i + t.End})
				}
			}
		}
		i = j
	}
	return out
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v'
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// worth reports whether a piece of text between white space may hold a
// token that is a term: it has a byte that is not ASCII, or a word whose
// first letters start a term.
func (s *spanner) worth(p []byte) bool {
	for k := 0; k < len(p); k++ {
		if p[k] >= 0x80 {
			return true
		}
		if !isWordByte(p[k]) || k > 0 && isWordByte(p[k-1]) {
			continue
		}
		c0 := lower(p[k])
		if s.ascii[c0][128] {
			return true // a term of one letter
		}
		if k+1 < len(p) && isWordByte(p[k+1]) && s.ascii[c0][lower(p[k+1])] {
			return true
		}
	}
	return false
}

// maybe reports whether raw can analyze to a term: a term starts with the
// first two letters of raw, lower-cased, or raw is not ASCII (lower case
// may change its bytes).
func (s *spanner) maybe(raw []byte) bool {
	var h [2]byte
	n := min(2, len(raw))
	for i := range n {
		c := raw[i]
		if c >= 0x80 {
			return true
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		h[i] = c
	}
	for _, c := range raw[n:] {
		if c >= 0x80 {
			return true
		}
	}
	return s.heads[string(h[:n])] || n > 1 && s.heads[string(h[:1])] // a term of one letter
}

// analyze runs one token through the analyzer's filters.
func (s *spanner) analyze(raw []byte) bool {
	ts := analysis.TokenStream{{Term: slices.Clone(raw), Position: 1, Type: analysis.AlphaNumeric}}
	for _, f := range s.filters {
		ts = f.Filter(ts)
	}
	return len(ts) == 1 && s.isTerm(string(ts[0].Term))
}

// isTerm reports whether an analyzed token is a query term or one of the
// longer words a query word finds.
func (s *spanner) isTerm(t string) bool {
	if s.terms[t] {
		return true
	}
	for _, w := range s.longer {
		if expands(w, t) {
			return true
		}
	}
	return false
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
