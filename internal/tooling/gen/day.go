package gen

import (
	"math/rand/v2"
	"strings"
	"time"

	"github.com/daybook/daybook/dayfiles"
)

// Lines per day file, title included: weekdays are busier than weekends.
const (
	WeekdayMinLines = 170
	WeekdayMaxLines = 296
	WeekendMinLines = 70
	WeekendMaxLines = 150
)

// A day is composed of blocks: entries, and free-text notes between them.
type day struct {
	blocks  []block
	entries int
	lines   int
}

type block struct {
	entry dayfiles.NewEntry
	note  []string // a free-text note when not nil
}

// compose writes day i: filler entries up to a target line count, with the
// day's planted facts and free-text notes at random places among them.
func (p *plan) compose(i int) *day {
	dp := p.days[i]
	r := rand.New(rand.NewPCG(p.opts.Seed, 0x9e3779b97f4a7c15*uint64(i+1)))
	c := composer{p: p, r: r, i: i}
	c.people, c.projects = p.around(i)
	c.topicCum = p.topicWeights(i, nil)
	target := WeekdayMinLines + r.IntN(WeekdayMaxLines-WeekdayMinLines+1)
	notes := 0
	if dp.weekend {
		target = WeekendMinLines + r.IntN(WeekendMaxLines-WeekendMinLines+1)
	}
	if r.IntN(10) < 4 {
		notes = 1 + r.IntN(3)
	}
	notesAt := randomLines(r, notes, target/10, target*8/10)
	factsAt := randomLines(r, len(dp.facts), target/20, target*9/10)
	d := &day{lines: 2} // title and a blank line
	prevNote := true
	for d.lines < target || len(factsAt) > 0 {
		switch {
		case len(factsAt) > 0 && factsAt[0] <= d.lines:
			f := dp.facts[len(dp.facts)-len(factsAt)]
			factsAt = factsAt[1:]
			tags := f.tags
			if tags == nil {
				tags = []string{f.tag}
			}
			d.add(block{entry: dayfiles.NewEntry{Kind: f.kind, Text: f.text, Tags: tags}}, prevNote)
			prevNote = false
		case len(notesAt) > 0 && notesAt[0] <= d.lines:
			notesAt = notesAt[1:]
			note := c.note()
			if target-d.lines < len(note)+4 {
				continue
			}
			d.add(block{note: note}, prevNote)
			prevNote = true
		default:
			d.add(block{entry: c.entry(max(1, target-d.lines))}, prevNote)
			prevNote = false
		}
	}
	c.times(d, dp.weekend)
	return d
}

// add appends b and counts its lines: a note has a blank line after it, and
// one before it when it follows an entry.
func (d *day) add(b block, prevNote bool) {
	d.blocks = append(d.blocks, b)
	if b.note != nil {
		d.lines += len(b.note) + 1
		if !prevNote {
			d.lines++
		}
		return
	}
	d.entries++
	d.lines += 1 + strings.Count(b.entry.Text, "\n")
}

// randomLines returns n sorted line numbers in [lo, hi].
func randomLines(r *rand.Rand, n, lo, hi int) []int {
	out := make([]int, n)
	for k := range out {
		out[k] = lo + r.IntN(hi-lo+1)
	}
	for a := 1; a < n; a++ { // insertion sort: n is tiny
		for b := a; b > 0 && out[b] < out[b-1]; b-- {
			out[b], out[b-1] = out[b-1], out[b]
		}
	}
	return out
}

// times gives the entries distinct minutes, increasing through the day, from
// a morning start to 23:50.
func (c *composer) times(d *day, weekend bool) {
	start := 7*60 + c.r.IntN(120)
	if weekend {
		start = 8*60 + c.r.IntN(150)
	}
	const last = 23*60 + 50
	need, left := d.entries, last-start+1
	m := start
	date := c.p.days[c.i].date
	for k := range d.blocks {
		b := &d.blocks[k]
		if b.note != nil {
			continue
		}
		// Selection sampling: take minute m with probability need/left.
		for c.r.IntN(left) >= need {
			m++
			left--
		}
		b.entry.At = localTime(date, m)
		m++
		left--
		need--
	}
}

// render appends the day file's bytes to buf.
func (d *day) render(buf []byte, title string) []byte {
	buf = append(buf, title...)
	buf = append(buf, "\n\n"...)
	prevNote := true
	for _, b := range d.blocks {
		if b.note == nil {
			buf = append(buf, b.entry.Format(time.UTC)...)
			prevNote = false
			continue
		}
		if !prevNote {
			buf = append(buf, '\n')
		}
		for _, l := range b.note {
			buf = append(buf, l...)
			buf = append(buf, '\n')
		}
		buf = append(buf, '\n')
		prevNote = true
	}
	return buf
}
