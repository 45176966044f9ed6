package index

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/searcher"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/daybook/daybook/internal/util/words"
)

// A query word also finds the longer words it is a prefix of: "argon"
// finds "Argon2", "python" "python3", "kube" "kubernetes", as `daybook
// find` finds them. Those longer words weigh ExpandBoost of a word
// itself, so that a document that has the word as written ranks above one
// that has only a longer one. Measured on the three recall evals (limit
// 10, offline models), it lost nothing: REALTALK's drill went from 63.9 /
// 0.748 to 64.4 / 0.750 (hit@1 / MRR), the hand-written and the planted
// sets were unchanged. Words within an edit or two instead lost more than
// they found (docs/decisions/lexical-changes-not-kept.md).

// ExpandBoost is the weight of a word found through a query word it
// starts with; the linear scan weighs such a word the same (recall).
const ExpandBoost = 0.3

// minExpand is the shortest query word that finds longer words.
const minExpand = 3

// expansions returns the distinct words of text that find longer words:
// lower-cased, letters only, at least minExpand long, not stop words.
func expansions(text string) []string {
	var out []string
	for _, w := range words.Lower(text) {
		if len([]rune(w)) < minExpand || words.IsStop(w) || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
			continue
		}
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// expands reports whether term, an analyzed token, is one of the longer
// words w finds.
func expands(w, term string) bool {
	return len(term) > len(w) && strings.HasPrefix(term, w)
}

// textQuery is the scored part of a search for text (see wordsQuery).
func textQuery(text string) query.Query { return wordsQuery{text: text} }

// textQuery is the scored part of a search for text, its query words'
// longer words kept for the index's generation: a recall searches the same
// text a dozen times (every level, every group), and reading the
// dictionary for each word was a sixth of a search's own cost.
func (t *TextIndex) textQuery(text string) query.Query {
	t.mu.RLock()
	gen := t.gen
	t.mu.RUnlock()
	return wordsQuery{text: text, cache: &t.longer, gen: gen}
}

// maxLongerCached bounds the query words whose longer words are kept:
// they come from queries.
const maxLongerCached = 1024

// wordsQuery is bleve's match query of the text field (a disjunction of
// the terms of text as the field's analyzer makes them) with, in the same
// disjunction, a clause for each word that has longer words in the index:
// those words, found in the field's dictionary by the word as a prefix,
// at ExpandBoost. In one flat disjunction a document that has none of
// the longer words scores in the same proportion to another as by the
// terms alone; a query whose words have no longer words is the match
// query itself.
type wordsQuery struct {
	text  string
	cache *genCache[string, []string] // nil: read the dictionary every time
	gen   uint64                      // the generation of the index the cache is of
}

// longer returns the longer words of w, from the cache when it has them.
func (q wordsQuery) longer(r bleveindex.IndexReader, w string) ([]string, error) {
	if q.cache == nil {
		return longerTerms(r, w)
	}
	if terms, ok := q.cache.get(q.gen, w); ok {
		return terms, nil
	}
	terms, err := longerTerms(r, w)
	if err == nil {
		q.cache.set(q.gen, w, terms)
	}
	return terms, err
}

func (q wordsQuery) Searcher(ctx context.Context, r bleveindex.IndexReader, m mapping.IndexMapping, options search.SearcherOptions) (search.Searcher, error) {
	var longer []query.Query
	for _, w := range expansions(q.text) {
		terms, err := q.longer(r, w)
		if err != nil {
			return nil, err
		}
		if len(terms) > 0 {
			longer = append(longer, termsQuery{terms: terms, boost: ExpandBoost})
		}
	}
	if len(longer) == 0 {
		mq := bleve.NewMatchQuery(q.text)
		mq.SetField("text")
		return mq.Searcher(ctx, r, m, options)
	}
	a := m.AnalyzerNamed(m.AnalyzerNameForPath("text"))
	if a == nil {
		return nil, fmt.Errorf("no analyzer for the text field")
	}
	var parts []query.Query
	for _, t := range a.Analyze([]byte(q.text)) {
		tq := bleve.NewTermQuery(string(t.Term))
		tq.SetField("text")
		parts = append(parts, tq)
	}
	d := bleve.NewDisjunctionQuery(append(parts, longer...)...)
	d.SetMin(1)
	return d.Searcher(ctx, r, m, options)
}

// maxLonger caps the longer words of one query word.
const maxLonger = 64

// longerTerms returns the terms of the text field that w finds (expands).
func longerTerms(r bleveindex.IndexReader, w string) ([]string, error) {
	d, err := r.FieldDictPrefix("text", []byte(w))
	if err != nil {
		return nil, fmt.Errorf("reading the terms that start with %q: %w", w, err)
	}
	defer d.Close()
	var out []string
	for len(out) < maxLonger {
		e, err := d.Next()
		if err != nil {
			return nil, fmt.Errorf("reading the terms that start with %q: %w", w, err)
		}
		if e == nil {
			break
		}
		if expands(w, e.Term) {
			out = append(out, e.Term)
		}
	}
	return out, nil
}

// termsQuery is a disjunction of terms of the text field searched as one
// clause, as bleve's prefix and regexp queries search theirs.
type termsQuery struct {
	terms []string
	boost float64
}

func (q termsQuery) Searcher(ctx context.Context, r bleveindex.IndexReader, _ mapping.IndexMapping, options search.SearcherOptions) (search.Searcher, error) {
	return searcher.NewMultiTermSearcher(ctx, r, q.terms, "text", q.boost, options, true)
}

// Longer reports whether other, a lower-cased word, is one of the longer
// words the lower-cased query word w finds ("argon" finds "argon2"), as a
// search of the index does; the linear scan finds the same words.
func Longer(w, other string) bool {
	return len(expansions(w)) == 1 && expands(w, other)
}
