package offline

import (
	"container/heap"
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
//
// A sentence's score can only fall as others are chosen (its terms are
// had more often, its item gets a sentence), so the choice is lazy: the
// sentences wait in a heap by their last score, and only the top one's is
// worked out again; when it still beats the next one's last score, it is
// the best (the greedy choice, without scoring every sentence each time).
func choose(sents []sentence, weight map[string]float64, limit int, spread bool) []int {
	ids := map[string]int{}
	var w []float64
	terms := make([][]int, len(sents))
	for i, s := range sents {
		for _, t := range s.terms {
			id, ok := ids[t]
			if !ok {
				id = len(w)
				ids[t] = id
				w = append(w, weight[t])
			}
			terms[i] = append(terms[i], id)
		}
	}
	have := make([]int, len(w))
	itemHas := map[int]bool{} // items with a sentence chosen
	seen := map[string]bool{} // the texts chosen, so that a repeated line is not
	cost := make([]float64, len(sents))
	words := make([]int, len(sents))
	score := func(i int) float64 {
		g := gain(terms[i], w, have)
		if spread && !itemHas[sents[i].item] {
			g *= 2
		}
		return sents[i].quality * g / cost[i]
	}
	q := make(queue, 0, len(sents))
	for i, s := range sents {
		words[i] = s.words
		if s.speaker != "" {
			words[i] += len(strings.Fields(s.speaker))
		}
		cost[i] = math.Pow(float64(words[i]), costPower)
		if words[i] <= limit {
			q = append(q, scored{i, score(i)})
		}
	}
	heap.Init(&q)
	var keep []int
	used := 0
	for q.Len() > 0 {
		top := heap.Pop(&q).(scored)
		if used+words[top.i] > limit {
			continue // it never fits again: used only grows
		}
		top.score = score(top.i)
		if q.Len() > 0 && q.less(q[0], top) {
			heap.Push(&q, top) // another may be better now
			continue
		}
		if top.score <= 0 {
			break
		}
		s := sents[top.i]
		key := strings.ToLower(strings.Join(strings.Fields(s.text), " "))
		if seen[key] {
			continue
		}
		seen[key] = true
		keep = append(keep, top.i)
		used += words[top.i]
		itemHas[s.item] = true
		for _, t := range terms[top.i] {
			have[t]++
		}
	}
	return keep
}

// gain is what terms add to a summary that has each term have[t] times:
// a term's weight times the square root's growth, 1 for a term new to the
// summary, 0.41 for its second time, 0.32 for its third, so that a
// sentence about something else wins over one more about the same.
func gain(terms []int, weight []float64, have []int) float64 {
	g := 0.0
	for _, t := range terms {
		n := float64(have[t])
		g += weight[t] * (math.Sqrt(n+1) - math.Sqrt(n))
	}
	return g
}

type scored struct {
	i     int
	score float64
}

// queue is a max-heap of sentences by score, the earlier first on a tie.
type queue []scored

func (q queue) less(a, b scored) bool {
	return a.score > b.score || (a.score == b.score && a.i < b.i)
}
func (q queue) Len() int           { return len(q) }
func (q queue) Less(a, b int) bool { return q.less(q[a], q[b]) }
func (q queue) Swap(a, b int)      { q[a], q[b] = q[b], q[a] }
func (q *queue) Push(x any)        { *q = append(*q, x.(scored)) }
func (q *queue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}
