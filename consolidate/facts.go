package consolidate

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/util/words"
)

// How many tags, people and busiest days each level lists, and how many
// decisions a year shows (a day and a month show all of theirs).
const (
	maxYearDecisions = 50
	maxBusiest       = 5
)

func maxCounts(l date.Level) int {
	switch l {
	case date.LevelDay:
		return 10
	case date.LevelMonth:
		return 15
	default:
		return 20
	}
}

// facts is what a summary must not lose, computed from the day files
// themselves rather than by a Summarizer: counts, decisions verbatim, tags
// and people with counts, entries per day.
type facts struct {
	counts    Counts
	decisions []Decision
	tags      map[string]int
	people    map[string]int
	keywords  map[string]int
	perDay    []DayCount
}

func newFacts() *facts {
	return &facts{tags: map[string]int{}, people: map[string]int{}, keywords: map[string]int{}}
}

// merge adds the facts of o, a later period, to f.
func (f *facts) merge(o *facts) {
	f.counts.add(o.counts)
	f.decisions = append(f.decisions, o.decisions...)
	for k, v := range o.tags {
		f.tags[k] += v
	}
	for k, v := range o.people {
		f.people[k] += v
	}
	for k, v := range o.keywords {
		f.keywords[k] += v
	}
	f.perDay = append(f.perDay, o.perDay...)
}

// addDay adds a parsed day file to f.
func (f *facts) addDay(day *dayfiles.Day) {
	rel := dayfiles.RelPath(day.Date)
	var c Counts
	if len(day.Entries) > 0 {
		c.Days = 1
	}
	c.Entries, c.Notes = len(day.Entries), len(day.Notes)
	texts := make([]string, len(day.Entries))
	for i, e := range day.Entries {
		texts[i] = e.Text
	}
	whom := NewWhom(texts)
	for i, e := range day.Entries {
		switch e.Kind {
		case dayfiles.KindDecision:
			c.Decisions++
			f.decisions = append(f.decisions, Decision{
				Ref: rel + ":" + strconv.Itoa(e.Line), Path: rel, Line: e.Line, Time: e.Clock(), Text: e.Text,
			})
		case dayfiles.KindFact:
			c.Facts++
		case dayfiles.KindEvent:
			c.Events++
		case dayfiles.KindTodo:
			c.Todos++
		}
		for _, t := range e.Tags {
			f.tags[t]++
		}
		if dayfiles.Captured(e.Tags) {
			continue // an agent's turns are no one's name and no topic of the day
		}
		for _, p := range whom.Of(i) {
			f.people[p]++
		}
		for _, w := range words.Keywords(e.Text) {
			f.keywords[w]++
		}
	}
	for _, n := range day.Notes {
		for _, w := range words.Keywords(n.Text) {
			f.keywords[w]++
		}
	}
	f.counts.add(c)
	if len(day.Entries) > 0 {
		f.perDay = append(f.perDay, DayCount{Date: day.Date.String(), Entries: len(day.Entries)})
	}
}

// fill sets the fact sections of s from f.
func (f *facts) fill(s *Summary) {
	s.Counts = f.counts
	s.Tags = topTags(f.tags, maxCounts(s.Period.Level))
	s.People = top(f.people, maxCounts(s.Period.Level))
	s.Keywords = keywords(f.keywords, maxKeywords(s.Period.Level))
	s.Decisions = f.decisions
	if s.Period.Level == date.LevelYear && len(f.decisions) > maxYearDecisions {
		s.Decisions = f.salientDecisions(maxYearDecisions)
		s.DecisionsOmitted = len(f.decisions) - len(s.Decisions)
		s.months = map[int]bool{}
		for _, d := range f.decisions {
			if m, err := strconv.Atoi(d.Path[len("days/2026/") : len("days/2026/")+2]); err == nil {
				s.months[m] = true
			}
		}
	}
	if s.Period.Level != date.LevelDay {
		busiest := slices.Clone(f.perDay)
		slices.SortStableFunc(busiest, func(a, b DayCount) int { return cmp.Compare(b.Entries, a.Entries) })
		s.Busiest = busiest[:min(len(busiest), maxBusiest)]
	}
}

// salientDecisions returns the n most salient decisions in time order. A
// decision scores by how much the period talks about its tags and people
// (the log of their counts), with a penalty for a text too short to say much
// or too long to be one decision; ties keep time order.
func (f *facts) salientDecisions(n int) []Decision {
	type scored struct {
		i     int
		score float64
	}
	ss := make([]scored, len(f.decisions))
	for i, d := range f.decisions {
		score := 1.0
		for _, t := range dayfiles.Tags(d.Text) {
			score += math.Log1p(float64(f.tags[t]))
		}
		for _, p := range People(d.Text) {
			score += 0.5 * math.Log1p(float64(f.people[p]))
		}
		if w := len(strings.Fields(d.Text)); w < 4 || w > 80 {
			score *= 0.5
		}
		ss[i] = scored{i, score}
	}
	slices.SortStableFunc(ss, func(a, b scored) int { return cmp.Compare(b.score, a.score) })
	ss = ss[:n]
	slices.SortFunc(ss, func(a, b scored) int { return cmp.Compare(a.i, b.i) })
	out := make([]Decision, n)
	for k, s := range ss {
		out[k] = f.decisions[s.i]
	}
	return out
}

// top returns the n names with the highest counts, ties by name.
// topTags returns the n most frequent tags of m, the person's before the
// automatic ones (dayfiles.AutoTag): a busy agent's #claude-code,
// #session-… and #project-… are on every captured turn, and would
// otherwise fill a day's list and leave out the tags the person wrote.
func topTags(m map[string]int, n int) []Count {
	own, auto := map[string]int{}, map[string]int{}
	for k, v := range m {
		if dayfiles.AutoTag(k) {
			auto[k] = v
		} else {
			own[k] = v
		}
	}
	out := top(own, n)
	return append(out, top(auto, n-len(out))...)
}

func top(m map[string]int, n int) []Count {
	out := make([]Count, 0, len(m))
	for k, v := range m {
		out = append(out, Count{k, v})
	}
	slices.SortFunc(out, func(a, b Count) int {
		if c := cmp.Compare(b.N, a.N); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out[:min(len(out), n)]
}
