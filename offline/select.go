package offline

import (
	"math"
	"strings"
)

// costPower is how much a sentence's length counts against what it brings:
// 0 would take the longest sentences, 1 the densest; a little over 1 leans
// to the short sentence that says one thing over the long one that says
// it among much else (the length weight of a sentence keeps fragments of
// under four words out).
const costPower = 1.3

// choose picks sentences greedily within limit words: each time the one
// whose gain (gain) over the cost of its words (its speaker's name
// included) to the power costPower, times its quality, is highest; ties go
// to the earlier sentence. With spread, a sentence of an item (a day of a
// month, a month of a year) that has none chosen yet gains double. It
// returns the indexes chosen, no sentence twice.
func choose(sents []sentence, weight map[string]float64, limit int, spread bool) []int {
	have := map[string]int{}  // times each term is in the summary
	itemHas := map[int]bool{} // items with a sentence chosen
	seen := map[string]bool{} // the texts chosen, so that a repeated line is not
	taken := make([]bool, len(sents))
	var keep []int
	used := 0
	for {
		best, bestScore := -1, 0.0
		for i, s := range sents {
			if taken[i] {
				continue
			}
			cost := s.words
			if s.speaker != "" {
				cost += len(strings.Fields(s.speaker))
			}
			if used+cost > limit {
				continue
			}
			g := gain(s.terms, weight, have)
			if spread && !itemHas[s.item] {
				g *= 2
			}
			score := s.quality * g / math.Pow(float64(cost), costPower)
			if score > bestScore {
				best, bestScore = i, score
			}
		}
		if best < 0 {
			return keep
		}
		s := sents[best]
		taken[best] = true
		key := strings.ToLower(strings.Join(strings.Fields(s.text), " "))
		if seen[key] {
			continue
		}
		seen[key] = true
		keep = append(keep, best)
		used += s.words
		if s.speaker != "" {
			used += len(strings.Fields(s.speaker))
		}
		itemHas[s.item] = true
		for _, t := range s.terms {
			have[t]++
		}
	}
}

// gain is what terms add to a summary that has each term have[t] times:
// a term's weight times the square root's growth, 1 for a term new to the
// summary, 0.41 for its second time, 0.32 for its third, so that a
// sentence about something else wins over one more about the same.
func gain(terms []string, weight map[string]float64, have map[string]int) float64 {
	g := 0.0
	for _, t := range terms {
		n := float64(have[t])
		g += weight[t] * (math.Sqrt(n+1) - math.Sqrt(n))
	}
	return g
}
