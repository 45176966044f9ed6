package assemble

import (
	"cmp"
	"math"
	"slices"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// QueryWords finds a query's own words in texts (recall.QueryWords): Len
// is how many words the query has, Find the indexes of those each text
// holds.
type QueryWords interface {
	Len() int
	Find(texts []string) [][]int
}

// wordMatch is an entry of an evidence day that holds some of the query's
// words: the at-th of day, at rel.
type wordMatch struct {
	day *dayfiles.Day
	at  int
	rel float64
	n   int // its order among the matches, the most relevant first
}

// wordMatches returns the entries near the entry hits (as far as their
// neighbours are read: neighboursBefore before a hit to neighboursAfter
// after it, in its day's file) that hold some of the query's words, the
// most relevant first. hits gives the hits' places in their days, and
// days each day's best hit's score over the best hit's. An entry keeps its
// day's score times the share of the query's words it holds, each word
// weighed by how rare it is among those entries (Robertson and Spärck
// Jones's weight, log((N-n+0.5)/(n+0.5)) of a word n of N entries hold,
// never below 0): an answer often repeats a word of its question ("the
// dentist? last Friday"), and a word that most entries hold (the name of
// who speaks or writes) tells none of them apart. A word no entry holds
// weighs as the rarest, so that an entry with only the common words of a
// query whose rare words are elsewhere keeps little. The day's score is
// not squared as a hit's relevance is (relevancePower): a hit's
// neighbours are only as good as its day, while an entry that holds the
// query's rare words is evidence of its own.
func (g *gatherer) wordMatches(hits map[*dayfiles.Day][]int, days map[date.Date]float64) []wordMatch {
	w := g.in.Words
	if w == nil || w.Len() == 0 || len(hits) == 0 {
		return nil
	}
	order := make([]*dayfiles.Day, 0, len(hits))
	for d := range hits {
		order = append(order, d)
	}
	slices.SortFunc(order, func(a, b *dayfiles.Day) int { return a.Date.Compare(b.Date) })
	type found struct {
		day   *dayfiles.Day
		at    int
		words []int
	}
	var all []found
	df := make([]int, w.Len())
	n := 0
	var texts []string
	var at []int
	for _, day := range order {
		texts, at = texts[:0], at[:0]
		near := make([]bool, len(day.Entries))
		for _, h := range hits[day] {
			// The hit's own conversation's entries around it (as the
			// walks read them: a captured session's turns between the
			// person's notes are not near them, nor they near its turns).
			conv := dayfiles.Conversation(day.Entries[h].Tags)
			near[h] = true
			for _, dir := range []int{1, -1} {
				n, skipped := 0, 0
				limit := map[int]int{1: neighboursAfter, -1: neighboursBefore}[dir]
				for i := h + dir; i >= 0 && i < len(day.Entries) && n < limit && skipped <= maxSkip; i += dir {
					if dayfiles.Conversation(day.Entries[i].Tags) != conv {
						skipped++
						continue
					}
					near[i] = true
					n++
				}
			}
		}
		for i, ok := range near {
			if ok {
				texts, at = append(texts, dayfiles.WithoutAutoTags(day.Entries[i].Text)), append(at, i)
			}
		}
		n += len(texts)
		for k, ws := range w.Find(texts) {
			if len(ws) == 0 {
				continue
			}
			for _, t := range ws {
				df[t]++
			}
			all = append(all, found{day: day, at: at[k], words: ws})
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
