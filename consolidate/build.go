package consolidate

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// WordLimit is about how many words of prose a summary of level l has.
func WordLimit(l date.Level) int {
	switch l {
	case date.LevelDay:
		return 120
	case date.LevelMonth:
		return 250
	default:
		return 400
	}
}

// KindSession is the kind of a day's item that stands for a captured
// agent session (or a proxied chat): a summarizer weighs it below the
// person's own entries.
const KindSession = "session"

// foldedText is the most characters of a captured session's first turn
// its day's summary is given.
const foldedText = 160

// dayItems returns a day's entries and free-text notes in file order, front
// matter left out, each captured session folded into one item.
func dayItems(day *dayfiles.Day) []Item {
	rel := dayfiles.RelPath(day.Date)
	items := make([]Item, 0, len(day.Entries)+len(day.Notes))
	lines := make([]int, 0, cap(items))
	sessions := map[string]int{} // a captured conversation: its item
	for _, e := range day.Entries {
		if conv := dayfiles.Conversation(e.Tags); conv != "" {
			// A captured session (or chat) is one item of its day, at its
			// first turn: what it was about, not every turn, so that an
			// agent's busy day does not crowd out the person's own notes.
			if i, ok := sessions[conv]; ok {
				items[i].turns++
				continue
			}
			sessions[conv] = len(items)
		}
		items = append(items, Item{
			ID: e.ID, When: e.Clock(), Kind: string(e.Kind), Text: e.Text, Tags: e.Tags,
			Ref: rel + ":" + strconv.Itoa(e.Line), turns: 1,
		})
		lines = append(lines, e.Line)
	}
	for _, i := range sessions {
		it := &items[i]
		text := strings.Join(strings.Fields(dayfiles.WithoutAutoTags(it.Text)), " ")
		if r := []rune(text); len(r) > foldedText {
			text = string(r[:foldedText]) + " …"
		}
		it.Text = fmt.Sprintf("An agent session of %d turns began: %s", it.turns, text)
		it.Kind = KindSession
	}
	for _, n := range day.Notes {
		if n.Line == 1 && strings.HasPrefix(n.Text, "---") {
			continue // front matter
		}
		items = append(items, Item{
			ID: n.ID(day.Date), Kind: "text", Text: n.Text, Tags: dayfiles.Tags(n.Text),
			Ref: rel + ":" + strconv.Itoa(n.Line),
		})
		lines = append(lines, n.Line)
	}
	idx := make([]int, len(items))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return lines[a] - lines[b] })
	out := make([]Item, len(items))
	for k, i := range idx {
		out[k] = items[i]
	}
	return out
}

// buildParent makes a month's summary from its daily summaries (the prose)
// and its day files (the facts), or a year's from its monthly summaries and
// its day files.
func (r *run) buildParent(p Period, kids []child) (*Summary, Input, error) {
	in := Input{Level: p.Level, Period: p.String(), WordLimit: WordLimit(p.Level)}
	for _, k := range kids {
		s, err := ReadSummary(k.p.Path(r.c.Root))
		if err != nil {
			r.log.Warn("leaving an unreadable summary out of its parent", "path", k.p.Rel(), "parent", p.Rel(), "err", err)
			continue
		}
		tags := make([]string, len(s.Tags))
		for i, t := range s.Tags {
			tags[i] = t.Name
		}
		in.Items = append(in.Items, Item{
			ID: k.p.ID(), When: k.p.String(), Kind: "summary", Text: s.Prose, Tags: tags, Ref: k.p.Rel(),
		})
	}
	fa := newFacts()
	for _, k := range kids {
		if p.Level == date.LevelYear {
			fa.merge(r.monthFacts(k.p, r.children(k.p)))
			continue
		}
		df, err := r.dayFacts(k.p.Date())
		if err != nil {
			r.log.Warn("leaving a day file out of the facts of its month and year", "path", dayfiles.RelPath(k.p.Date()), "err", err)
			continue
		}
		fa.merge(df)
	}
	if p.Level == date.LevelMonth {
		r.keepMonthFacts(p, kids, fa)
	}
	if len(in.Items) == 0 && fa.counts.Entries == 0 {
		return nil, Input{}, errNoInput
	}
	s := &Summary{Period: p}
	fa.fill(s)
	return s, in, nil
}

// dayFacts returns the facts of day d, parsing its file unless this run
// did already.
func (r *run) dayFacts(d date.Date) (*facts, error) {
	if f, ok := r.facts[d]; ok {
		return f, nil
	}
	day, err := dayfiles.ParseFile(dayfiles.Path(r.c.Root, d), d)
	if err != nil {
		return nil, err
	}
	f := newFacts()
	f.addDay(day)
	r.facts[d] = f
	return f, nil
}

// keepMonthFacts keeps a month's facts for its year and lets go of its days'.
func (r *run) keepMonthFacts(m Period, days []child, fa *facts) {
	r.months[m] = fa
	for _, d := range days {
		delete(r.facts, d.p.Date())
	}
}

// monthFacts returns the facts of month m made of days, from this run's
// build of the month or from the day files.
func (r *run) monthFacts(m Period, days []child) *facts {
	if fa, ok := r.months[m]; ok {
		return fa
	}
	fa := newFacts()
	for _, d := range days {
		df, err := r.dayFacts(d.p.Date())
		if err != nil {
			r.log.Warn("leaving a day file out of the facts of its year", "path", dayfiles.RelPath(d.p.Date()), "err", err)
			continue
		}
		fa.merge(df)
	}
	r.keepMonthFacts(m, days, fa)
	return fa
}
