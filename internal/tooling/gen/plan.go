package gen

import (
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
)

// plan is everything decided before any day is written: the calendar with its
// vacations, who and what is around when, where topics peak, and the facts.
type plan struct {
	opts     Options
	from, to date.Date
	days     []dayPlan
	people   []person
	projects []project
	peaks    []float64 // per topic: the day index where it is hottest
	width    float64   // how many days a topic stays warm
	tagCum   []float64 // cumulative Zipf weights of tagVocab
	facts    []Fact
	updates  []Update
}

type dayPlan struct {
	date    date.Date
	weekend bool
	written bool // false on vacations and skipped days
	facts   []plantedFact
}

// person is someone around from day index from to day index to.
type person struct {
	name, handle string
	from, to     int
}

type project struct {
	name     string
	from, to int
}

func newPlan(o Options) *plan {
	r := rand.New(rand.NewPCG(o.Seed, 0x64617962))
	end := o.End.In(time.UTC)
	from := date.Of(end.AddDate(-o.Years, 0, 1))
	p := &plan{opts: o, from: from, to: o.End}
	for d := from; !d.After(o.End); d = d.AddDays(1) {
		wd := d.Weekday()
		p.days = append(p.days, dayPlan{date: d, weekend: wd == time.Saturday || wd == time.Sunday, written: true})
	}
	n := len(p.days)
	p.planVacations(r)
	p.planPeople(r)
	p.planProjects(r)
	p.peaks = make([]float64, len(topics))
	for i := range p.peaks {
		p.peaks[i] = r.Float64() * float64(n)
	}
	p.width = 60 + 60*float64(o.Years)
	sum := 0.0
	for i := range tagVocab {
		sum += 1 / math.Pow(float64(i+1), 1.1)
		p.tagCum = append(p.tagCum, sum)
	}
	p.plantFacts(r)
	p.plantUpdates(o.Updates)
	return p
}

// planVacations leaves out one or two stretches of a week or two a year, and
// a few single days, mostly weekends. The last day always has a file.
func (p *plan) planVacations(r *rand.Rand) {
	n := len(p.days)
	for y := 0; y*365 < n; y++ {
		for v := range 1 + r.IntN(2) {
			length := 7 + r.IntN(8)
			if v > 0 {
				length = 5 + r.IntN(5)
			}
			start := y*365 + r.IntN(365)
			for i := start; i < start+length && i < n-1; i++ {
				p.days[i].written = false
			}
		}
	}
	for i := range n - 1 {
		odds := 100
		if p.days[i].weekend {
			odds = 20
		}
		if r.IntN(odds) == 0 {
			p.days[i].written = false
		}
	}
}

// planPeople lets people join and leave: a handful at the start, then one
// every month or two, each staying half a year to three years.
func (p *plan) planPeople(r *rand.Rand) {
	n := len(p.days)
	names := r.Perm(len(firstNames))
	next := 0
	add := func(from int) {
		name := firstNames[names[next%len(names)]]
		if next >= len(names) {
			name += " " + string(rune('A'+next/len(names)-1)) + "."
		}
		next++
		handle := ""
		if r.IntN(2) == 0 {
			handle = "@" + strings.ToLower(strings.Fields(name)[0])
			if r.IntN(3) == 0 {
				handle += strings.ToLower(firstNames[r.IntN(len(firstNames))][:1])
			}
		}
		p.people = append(p.people, person{name: name, handle: handle, from: from, to: from + 180 + r.IntN(900)})
	}
	for range 10 {
		add(-r.IntN(400))
	}
	for at := 20 + r.IntN(40); at < n; at += 30 + r.IntN(60) {
		add(at)
	}
}

// planProjects starts a project every few weeks; each runs two to nine months.
func (p *plan) planProjects(r *rand.Rand) {
	n := len(p.days)
	order := r.Perm(len(codenames))
	k := 0
	for at := -120; at < n; at += 30 + r.IntN(50) {
		name := codenames[order[k%len(order)]]
		if k >= len(order) {
			name += " " + []string{"II", "III", "IV", "V", "VI"}[min(k/len(order)-1, 4)]
		}
		k++
		p.projects = append(p.projects, project{name: name, from: at, to: at + 60 + r.IntN(210)})
	}
}

// topicWeights returns the cumulative weights of topics on day i: each topic
// peaks once over the range, work topics on weekdays, personal ones on
// weekends.
func (p *plan) topicWeights(i int, dst []float64) []float64 {
	dst = dst[:0]
	sum := 0.0
	weekend := p.days[i].weekend
	for t, tp := range topics {
		z := (float64(i) - p.peaks[t]) / p.width
		w := 0.08 + math.Exp(-z*z)
		switch {
		case tp.personal && !weekend:
			w *= 0.25
		case !tp.personal && weekend:
			w *= 0.1
		}
		sum += w
		dst = append(dst, sum)
	}
	return dst
}

// pick returns an index drawn by cumulative weights cum.
func pick(r *rand.Rand, cum []float64) int {
	x := r.Float64() * cum[len(cum)-1]
	lo, hi := 0, len(cum)-1
	for lo < hi {
		m := (lo + hi) / 2
		if cum[m] < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
