package assemble

import (
	"cmp"
	"math"
	"slices"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/internal/util/date"
)

// QueryWords finds a query's own words in a text (recall.QueryWords): Len
// is how many words the query has, Find the indexes of those text holds.
type QueryWords interface {
	Len() int
	Find(text string) []int
}

// wordMatch is an entry of an evidence day that holds some of the query's
// words: the at-th of day, at rel.
type wordMatch struct {
	day *dayfiles.Day
	at  int
	rel float64
	n   int // its order among the matches, the most relevant first
}

// wordMatches returns the entries of days (the days of the entry hits,
// each with its best hit's relevance) that hold some of the query's words,
// the most relevant first. An entry keeps its day's relevance times the
// share of the query's words it holds, each word weighed by how rare it is
// among those days' entries (Robertson and Spärck Jones's weight,
// log((N-n+0.5)/(n+0.5)) of a word n of N entries hold, never below 0): an
// answer often repeats a word of its question ("the dentist? last
// Friday"), and a word that most entries hold (the name of who speaks or
// writes) tells none of them apart. A word no entry holds weighs as the
// rarest, so that an entry with only the common words of a query whose
// rare words are elsewhere keeps little.
func (g *gatherer) wordMatches(days map[date.Date]float64) []wordMatch {
	w := g.in.Words
	if w == nil || w.Len() == 0 || len(days) == 0 {
		return nil
	}
	order := make([]date.Date, 0, len(days))
	for d := range days {
		order = append(order, d)
	}
	slices.SortFunc(order, func(a, b date.Date) int { return cmp.Compare(a.String(), b.String()) })
	type found struct {
		day   *dayfiles.Day
		at    int
		words []int
	}
	var all []found
	df := make([]int, w.Len())
	n := 0
	for _, d := range order {
		day, err := g.day(d)
		if err != nil {
			continue
		}
		n += len(day.Entries)
		for i, e := range day.Entries {
			ws := w.Find(e.Text)
			if len(ws) == 0 {
				continue
			}
			for _, k := range ws {
				df[k]++
			}
			all = append(all, found{day: day, at: i, words: ws})
		}
	}
	weight := make([]float64, len(df))
	total := 0.0
	for k, m := range df {
		weight[k] = max(0, math.Log((float64(n-m)+0.5)/(float64(m)+0.5)))
		total += weight[k]
	}
	if total <= 0 {
		return nil
	}
	var out []wordMatch
	for _, f := range all {
		share := 0.0
		for _, k := range f.words {
			share += weight[k]
		}
		if share > 0 {
			out = append(out, wordMatch{day: f.day, at: f.at, rel: days[f.day.Date] * share / total})
		}
	}
	slices.SortStableFunc(out, func(a, b wordMatch) int { return cmp.Compare(b.rel, a.rel) })
	for i := range out {
		out[i].n = i
	}
	return out
}
