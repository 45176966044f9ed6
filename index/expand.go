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

// wordsQuery is the scored search of text: the words of the person's
// documents (the text field) and those of what the loop wrote (the
// captured field, see capturedField) searched apart, each with its own
// word statistics, and joined (see joinHalves).
//
// Each half is bleve's match query of its field (a disjunction of the
// terms of text as the field's analyzer makes them) with, in the same
// disjunction, a clause for each word that has longer words in the field:
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

// longer returns the longer words of w in field, from the cache when it
// has them.
func (q wordsQuery) longer(r bleveindex.IndexReader, field, w string) ([]string, error) {
	if q.cache == nil {
		return longerTerms(r, field, w)
	}
	key := field + "\x00" + w
	if terms, ok := q.cache.get(q.gen, key); ok {
		return terms, nil
	}
	terms, err := longerTerms(r, field, w)
	if err == nil {
		q.cache.set(q.gen, key, terms)
	}
	return terms, err
}

// Searcher searches the person's words with the statistics of the
// documents that are not the loop's: the count of documents each word's
// weight (its idf) is taken against leaves the captured ones out, and
// their words are in a field of their own, so however many turns the loop
// writes, a query scores the person's documents as it would without them.
// The loop's half is weighed on the same scale: against the person's count
// of documents, a word as common as it is in both fields (see pooled).
func (q wordsQuery) Searcher(ctx context.Context, r bleveindex.IndexReader, m mapping.IndexMapping, options search.SearcherOptions) (search.Searcher, error) {
	all, err := r.DocCount()
	if err != nil {
		return nil, fmt.Errorf("counting documents: %w", err)
	}
	ncap, err := capturedCount(ctx, r)
	if err != nil {
		return nil, err
	}
	np := all - min(ncap, all) // the person's documents
	own, err := q.half(ctx, docTotal{r, np}, m, options, textField)
	if err != nil {
		return nil, err
	}
	if ncap == 0 {
		return normed(own, 1), nil
	}
	loop, err := q.half(ctx, docTotal{pooled{r, np}, np}, m, options, capturedField)
	if err != nil {
		_ = own.Close()
		return nil, err
	}
	return joinHalves(ctx, r, own, loop, options)
}

// half is the search of text in one field, as the match query of its
// words and their longer words.
func (q wordsQuery) half(ctx context.Context, r bleveindex.IndexReader, m mapping.IndexMapping, options search.SearcherOptions, field string) (search.Searcher, error) {
	var longer []query.Query
	for _, w := range expansions(q.text) {
		terms, err := q.longer(r, field, w)
		if err != nil {
			return nil, err
		}
		if len(terms) > 0 {
			longer = append(longer, termsQuery{terms: terms, field: field, boost: ExpandBoost})
		}
	}
	if len(longer) == 0 {
		mq := bleve.NewMatchQuery(q.text)
		mq.SetField(field)
		return mq.Searcher(ctx, r, m, options)
	}
	a := m.AnalyzerNamed(m.AnalyzerNameForPath(field))
	if a == nil {
		return nil, fmt.Errorf("no analyzer for the %s field", field)
	}
	var parts []query.Query
	for _, t := range a.Analyze([]byte(q.text)) {
		tq := bleve.NewTermQuery(string(t.Term))
		tq.SetField(field)
		parts = append(parts, tq)
	}
	d := bleve.NewDisjunctionQuery(append(parts, longer...)...)
	d.SetMin(1)
	return d.Searcher(ctx, r, m, options)
}

// maxLonger caps the longer words of one query word.
const maxLonger = 64

// longerTerms returns the terms of field that w finds (expands).
func longerTerms(r bleveindex.IndexReader, field, w string) ([]string, error) {
	d, err := r.FieldDictPrefix(field, []byte(w))
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

// termsQuery is a disjunction of terms of a text field searched as one
// clause, as bleve's prefix and regexp queries search theirs.
type termsQuery struct {
	terms []string
	field string
	boost float64
}

func (q termsQuery) Searcher(ctx context.Context, r bleveindex.IndexReader, _ mapping.IndexMapping, options search.SearcherOptions) (search.Searcher, error) {
	return searcher.NewMultiTermSearcher(ctx, r, q.terms, q.field, q.boost, options, true)
}

// Longer reports whether other, a lower-cased word, is one of the longer
// words the lower-cased query word w finds ("argon" finds "argon2"), as a
// search of the index does; the linear scan finds the same words.
func Longer(w, other string) bool {
	return len(expansions(w)) == 1 && expands(w, other)
}
