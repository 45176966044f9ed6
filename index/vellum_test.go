package index_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/vellum/levenshtein"
)

// TestFuzzyQueryAfterLazyBuilders checks the patched vellum in
// third_party/vellum, whose Levenshtein automaton builders are built on
// first use instead of in scorch's init: a fuzzy query through bleve and
// scorch, on a real index on disk, finds what edit distance 1 and 2 allow
// and nothing else, and a builder made now answers as before.
func TestFuzzyQueryAfterLazyBuilders(t *testing.T) {
	m := bleve.NewIndexMapping()
	bl, err := bleve.New(filepath.Join(t.TempDir(), "fuzzy"), m)
	if err != nil {
		t.Fatal(err)
	}
	defer bl.Close()
	for id, text := range map[string]string{
		"a": "kayak trip to the lake",
		"b": "kayaks on the roof",
		"c": "kajak in German",
		"d": "a yak in the zoo",
	} {
		if err := bl.Index(id, map[string]string{"text": text}); err != nil {
			t.Fatal(err)
		}
	}
	for fuzz, want := range map[int][]string{0: {"a"}, 1: {"a", "b", "c"}, 2: {"a", "b", "c", "d"}} {
		q := bleve.NewFuzzyQuery("kayak")
		q.SetField("text")
		q.SetFuzziness(fuzz)
		res, err := bl.Search(bleve.NewSearchRequest(q))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range res.Hits {
			got = append(got, h.ID)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("fuzziness %d: %v, want %v", fuzz, got, want)
		}
	}

	lb, err := levenshtein.NewLevenshteinAutomatonBuilder(1, true)
	if err != nil {
		t.Fatal(err)
	}
	if lb.MaxDistance() != 1 {
		t.Errorf("MaxDistance %d, want 1", lb.MaxDistance())
	}
	dfa, err := lb.BuildDfa("kayak", 1)
	if err != nil {
		t.Fatal(err)
	}
	for word, match := range map[string]bool{"kayak": true, "kayaks": true, "kajak": true, "kyaak": true, "kayaking": false} {
		s := dfa.Start()
		for i := 0; i < len(word); i++ {
			s = dfa.Accept(s, word[i])
		}
		if got := dfa.IsMatch(s); got != match {
			t.Errorf("%q within 1 of kayak: %v, want %v", word, got, match)
		}
	}
}
