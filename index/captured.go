package index

import (
	"context"
	"fmt"
	"math"

	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/searcher"
	bleveindex "github.com/blevesearch/bleve_index_api"
)

// What the loop writes (captured agent turns, proxied chats:
// dayfiles.Captured) is indexed apart from the person's own notes. A
// work journal of a hundred turns a day is most of the index within a
// month; in the one text field it had, its words set the weight of every
// query word (how rare it is among all documents), and the person's own
// days reordered under it. Its words now go in a field of their own, and
// the documents the loop wrote carry a keyword (capturedMarkField) that
// counts them: the person's half of a search weighs its words against the
// documents the loop did not write, by their counts in the person's field
// alone; the loop's half weighs its words on the same scale, by their
// counts in both fields (pooled). Weighed against the loop's documents
// alone, a turn holding one common query word ("the long run") outscored
// the person's days (docs/context.md, "What the loop wrote").
const (
	textField         = "text"  // the words of the person's documents and of every summary
	capturedField     = "ctext" // the words of an entry the loop wrote
	capturedMarkField = "cap"   // capturedMark on every entry the loop wrote
	capturedMark      = "1"
)

// capturedCount returns how many documents of the index the loop wrote.
func capturedCount(ctx context.Context, r bleveindex.IndexReader) (uint64, error) {
	tfr, err := r.TermFieldReader(ctx, []byte(capturedMark), capturedMarkField, false, false, false)
	if err != nil {
		return 0, fmt.Errorf("counting captured documents: %w", err)
	}
	defer tfr.Close()
	return tfr.Count(), nil
}

// docTotal is an index reader that gives n as the count of documents: the
// count a term's weight (idf) is taken against, so that one half of a
// search is weighed against its own documents only.
type docTotal struct {
	bleveindex.IndexReader
	n uint64
}

func (d docTotal) DocCount() (uint64, error) { return d.n, nil }

// pooled is the index reader the loop's half of a search is weighed with,
// on the person's scale: against the count of the person's documents (the
// half's docTotal), a word of the captured field counted in as many
// documents as hold it in either field, but in no more than there are of
// the person's. A word the loop writes a thousand times weighs the least a
// word can (idf 1), one rare everywhere as much as a rare word of the
// person's. Weighed against all documents instead (as the one field did),
// a turn holding one word the loop uses now and then ("Buy what the long
// run needs") came before the person's rarest word ("Atlas cutover
// started") in a memory of a few hundred notes, whose words weigh at most
// 1 + ln(their count).
type pooled struct {
	bleveindex.IndexReader
	most uint64 // the count of the person's documents: no word is counted in more
}

func (p pooled) TermFieldReader(ctx context.Context, term []byte, field string, freq, norm, vectors bool) (bleveindex.TermFieldReader, error) {
	tfr, err := p.IndexReader.TermFieldReader(ctx, term, field, freq, norm, vectors)
	if err != nil || field != capturedField {
		return tfr, err
	}
	own, err := p.IndexReader.TermFieldReader(ctx, term, textField, false, false, false)
	if err != nil {
		_ = tfr.Close()
		return nil, err
	}
	n := own.Count()
	if err := own.Close(); err != nil {
		_ = tfr.Close()
		return nil, err
	}
	return counted{tfr, min(tfr.Count()+n, p.most)}, nil
}

// counted is a term's reader that gives n as the count of documents that
// hold it.
type counted struct {
	bleveindex.TermFieldReader
	n uint64
}

func (c counted) Count() uint64 { return c.n }

// normed gives s the query norm of its own weight times scale, and keeps
// it: the norm a parent query passes down is ignored, so s scores as a
// query of its own. Scaled by 1 it scores as the whole query would.
func normed(s search.Searcher, scale float64) search.Searcher {
	if w := s.Weight(); w > 0 {
		s.SetQueryNorm(scale / math.Sqrt(w))
	}
	return selfNormed{s}
}

// selfNormed is a searcher that keeps the query norm normed gave it.
type selfNormed struct{ search.Searcher }

func (selfNormed) SetQueryNorm(float64) {}

// Optimize passes bleve's optimisations through to the wrapped searcher.
func (s selfNormed) Optimize(kind string, octx bleveindex.OptimizableContext) (bleveindex.OptimizableContext, error) {
	if o, ok := s.Searcher.(bleveindex.Optimizable); ok {
		return o.Optimize(kind, octx)
	}
	return nil, nil
}

// joinHalves returns the search of either half, own (the person's words)
// or loop (the loop's). No document is in both, and each scores as a query
// of its own: bleve's disjunction halves the score of a document one of
// its two clauses finds (its coordination factor), so each half is normed
// at twice its own norm, which gives back its own score exactly.
func joinHalves(ctx context.Context, r bleveindex.IndexReader, own, loop search.Searcher, options search.SearcherOptions) (search.Searcher, error) {
	s, err := searcher.NewDisjunctionSearcher(ctx, r, []search.Searcher{normed(own, 2), normed(loop, 2)}, 1, options)
	if err != nil {
		_ = own.Close()
		_ = loop.Close()
		return nil, fmt.Errorf("joining the person's and the loop's words: %w", err)
	}
	return s, nil
}
