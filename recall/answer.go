package recall

import (
	"cmp"
	"slices"
	"strings"

	"github.com/daybook/daybook/dayfiles/date"
)

// The drill's levels do not compete with each other for the answer: the
// summaries route and weigh, the entries answer. Measured on real dialogue
// (docs/recall.md), a summary ranked beside the entries it was made from
// took rank 1 from the right entry more often than it gave it, and each
// group's own normalisation made a weak parent's best child look strong.
// So every candidate day gets one score made of:
//
//   - its entries' evidence: the best entry's similarity plus a share of the
//     next two (a day where several turns match the question is more
//     likely the day it asks about than one with a single stray word);
//   - its summary's similarity (prose and keywords), when the drill or
//     the flat day search found it: a prior, which finds the day of a
//     question put in words its best entries lack.
//
// The months and years route: the drill searches the day summaries of the
// months it chose beside the range's best days. As a prior on their days
// they did not help (a month's weight of 0.1 gave hit@1 60.6 against 60.9),
// so they weigh nothing in a day's score.
//
// Each part is divided by its best value over the candidates, so parts
// compare across parents. Days are then ranked by their score, and the
// answer lists the best entry of each day in that order before any second
// entry of a day: ten entries of two days answer less than ten days.

// dayScore is one candidate day's score and its parts, for --explain.
type dayScore struct {
	day              string
	entries, summary float64
	score            float64
}

// answer orders the drill's candidates for the result list: entries by
// the score of their day, the best of each day first; summaries of level
// day only when the request asks for days or a day has no entry to show;
// months and years after every day, when asked for. Each candidate's fused
// score is replaced by the score it is ranked by. A day outside core (the range of the query's temporal phrase, searched
// with the day after it) weighs spillWeight of its score.
func answer(found []scored, level date.Level, core date.Range) []scored {
	// Indices into found, not copies: a scored is some 240 bytes, and a
	// context's recall answers from a thousand of them.
	best := make(map[string]int, len(found)) // by id: the best-scored one
	var ids []string
	for i, c := range found {
		b, ok := best[c.hit.ID]
		if !ok {
			ids = append(ids, c.hit.ID)
		}
		if !ok || c.fused > found[b].fused {
			best[c.hit.ID] = i
		}
	}
	entries := map[string][]scored{} // by day, best first
	summaries := map[string]int{}    // by period
	var upper []scored               // months and years
	for _, id := range ids {
		c := &found[best[id]]
		switch c.hit.Level {
		case date.LevelEntry:
			entries[c.hit.Period] = append(entries[c.hit.Period], *c)
		case date.LevelDay:
			summaries[c.hit.Period] = best[id]
		default:
			upper = append(upper, *c)
		}
	}
	days := map[string]*dayScore{}
	get := func(d string) *dayScore {
		if s, ok := days[d]; ok {
			return s
		}
		s := &dayScore{day: d}
		days[d] = s
		return s
	}
	var maxE, maxS float64
	for d, es := range entries {
		for i := range es {
			// An entry's evidence is its BM25 alone (over the best of the
			// level): entries found by the whole range's search carry no
			// cosine, and the offline cosine of one short turn is noise.
			es[i].fused = es[i].bm25
			if es[i].hit.Captured {
				es[i].fused *= capturedNearEqual
			}
		}
		slices.SortFunc(es, byFused)
		s := get(d)
		s.entries = es[0].fused
		if len(es) > 1 {
			s.entries += share2 * es[1].fused
		}
		if len(es) > 2 {
			s.entries += share3 * es[2].fused
		}
		maxE = max(maxE, s.entries)
	}
	for p, i := range summaries {
		s := get(p)
		s.summary = found[i].fused
		maxS = max(maxS, s.summary)
	}
	order := make([]*dayScore, 0, len(days))
	for _, s := range days {
		s.score = wEntries*ratio(s.entries, maxE) + wSummary*ratio(s.summary, maxS)
		if d, err := date.Parse(s.day); err == nil && !core.IsOpen() && !core.Contains(d) {
			s.score *= spillWeight
		}
		order = append(order, s)
	}
	slices.SortFunc(order, func(a, b *dayScore) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return strings.Compare(b.day, a.day) // newer first among equals
	})
	out := make([]scored, 0, len(ids)) // each id once at most
	add := func(c scored, s *dayScore) {
		c.day = s
		c.fused = s.score
		out = append(out, c)
	}
	wantDays := level == date.LevelDay
	// Round one: a result per day, best day first; rounds after it: each
	// day's next entry, still in the days' order.
	type dayAnswer struct {
		es     []scored
		sum    int // in found, when hasSum
		hasSum bool
	}
	byDay := make([]dayAnswer, len(order))
	for i, s := range order {
		byDay[i].es = entries[s.day]
		byDay[i].sum, byDay[i].hasSum = summaries[s.day]
	}
	for round := 0; ; round++ {
		more := false
		for i, s := range order {
			es, hasSum := byDay[i].es, byDay[i].hasSum
			switch {
			case s.score <= 0:
				// Neither an entry's words nor its summary's: a day found
				// by vectors alone whose similarity counts for nothing
				// here (an entry's evidence is its BM25). A score of 0
				// matched nothing: it is not an answer.
			case wantDays:
				if round == 0 && hasSum {
					add(found[byDay[i].sum], s)
				}
			case round < len(es):
				c := es[round]
				more = more || round+1 < len(es)
				if round > 0 && c.fused <= 0 {
					continue // found by vector alone: none of the query's words
				}
				if round > 0 {
					// A day's next entry scores its share of the day's score,
					// and never more than the result before it: the list is
					// in score order.
					s2 := *s
					s2.score = min(s.score*c.fused/max(es[0].fused, 1e-9), out[len(out)-1].fused)
					c.day = &s2
					c.fused = s2.score
					out = append(out, c)
				} else {
					add(c, s)
				}
			case round == 0 && len(es) == 0 && hasSum:
				add(found[byDay[i].sum], s) // found by its summary alone: the day is the answer
			}
		}
		if !more {
			break
		}
	}
	floor := 1.0 // no day: the months and years are the answer
	if len(out) > 0 {
		floor = out[len(out)-1].fused
	}
	slices.SortFunc(upper, byFused)
	for _, c := range upper {
		if c.fused <= 0 {
			continue // it matched nothing
		}
		// After every day, since they name no day, in their own order,
		// and no lower than a quarter of the last day's score: a month
		// whose words matched is not shown as a score of 0.
		c.fused = floor * (1 + min(c.fused, 1)) / 4
		out = append(out, c)
	}
	return out
}

func ratio(x, max float64) float64 {
	if max <= 0 {
		return 0
	}
	return x / max
}

// byFused orders candidates best first; equals newer first, by id (an
// entry's id starts with its day and time), so that the same index answers
// the same query the same way whatever order its segments gave the hits in.
func byFused(a, b scored) int {
	if c := cmp.Compare(b.fused, a.fused); c != 0 {
		return c
	}
	return strings.Compare(b.hit.ID, a.hit.ID)
}
