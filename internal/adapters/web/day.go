package web

import (
	"context"
	"html/template"
	"net/http"
	"slices"
	"strconv"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// entryView is an entry on its day's page. Lines are the anchors of its
// lines after the first, so that a link to any of them lands on it.
type entryView struct {
	daybook.Entry
	Lines  []int
	Tagged bool     // it carries the tag filter's tag
	Shown  string   // its text without the tags that end its lines (see withoutTrailingTags)
	Chips  []string // its tags that Shown does not hold
}

// noteView is free text of a day file, rendered from its markdown: the
// notes between two entries together, so that a list is one list.
type noteView struct {
	Line, EndLine int
	Text          string
	Lines         []int // the anchors of its lines after the first
	HTML          template.HTML
}

// itemView is an entry or a note, in the order of the day file.
type itemView struct {
	Entry *entryView
	Note  *noteView
}

type dayData struct {
	layout
	Date       string
	Weekday    string
	Path       string
	Exists     bool
	Summary    *summaryView
	Decisions  []entryView
	Entries    []entryView
	Notes      []noteView
	Items      []itemView // the entries and notes in file order
	ParseErr   string
	Prev, Next string
}

func (p *pages) day(w http.ResponseWriter, r *http.Request) {
	day, err := date.Parse(r.PathValue("day"))
	if err != nil {
		p.showError(w, r, http.StatusNotFound, "no such day "+strconv.Quote(r.PathValue("day"))+": want YYYY-MM-DD")
		return
	}
	ctx := r.Context()
	all, err := p.act.snapshot(ctx)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	resp, err := p.b.Day(ctx, daybook.DayRequest{Date: day.String()})
	if err != nil {
		p.fail(w, r, err)
		return
	}
	d := dayData{layout: p.frame(r, day.String(), all), Date: day.String(), Weekday: day.Weekday().String(),
		Path: resp.Path, Exists: resp.Exists}
	mo := day.MonthOf()
	// The year and the month link only when their pages exist: they hold
	// a day file or a summary.
	yearHref, monthHref := "", ""
	if ok, err := p.hasPage(ctx, all, consolidate.YearPeriod(day.Year)); err != nil {
		p.fail(w, r, err)
		return
	} else if ok {
		yearHref = "/year/" + strconv.Itoa(day.Year)
	}
	if ok, err := p.hasPage(ctx, all, consolidate.MonthPeriod(mo)); err != nil {
		p.fail(w, r, err)
		return
	} else if ok {
		monthHref = "/month/" + mo.String()
	}
	d.Crumbs = []crumb{{"Timeline", "/"}, {strconv.Itoa(day.Year), yearHref}, {mo.String(), monthHref}, {day.String(), ""}}
	d.Prev, d.Next = neighbours(all, day)
	if d.Summary, err = p.summary(ctx, consolidate.DayPeriod(day)); err != nil {
		p.fail(w, r, err)
		return
	}
	if d.Summary != nil {
		// The page lists the day's decisions from the day file itself, below:
		// the summary's copy of them would list each one twice.
		d.Summary.Decisions, d.Summary.Omitted = nil, 0
	}
	for _, e := range resp.Entries {
		v := entryView{Entry: e, Tagged: d.Tag != "" && slices.Contains(e.Tags, d.Tag)}
		var inline []string
		v.Shown, inline = withoutTrailingTags(e.Text)
		v.Chips = chips(e.Tags, inline)
		for n := e.Line + 1; n <= e.EndLine; n++ {
			v.Lines = append(v.Lines, n)
		}
		d.Entries = append(d.Entries, v)
		if e.Kind == string(dayfiles.KindDecision) {
			d.Decisions = append(d.Decisions, v)
		}
	}
	if resp.Exists {
		// The notes: free text outside entries, which a line hit may point at.
		if parsed, err := dayfiles.Parse(resp.Path, day, []byte(resp.Content)); err != nil {
			d.ParseErr = err.Error()
		} else {
			for _, n := range parsed.Notes {
				if n.Text == dayfiles.Title(day) {
					continue // the heading the page shows anyway
				}
				d.Notes = append(d.Notes, noteView{Line: n.Line, EndLine: n.EndLine, Text: n.Text})
			}
		}
	}
	d.Items = interleave(d.Entries, d.Notes)
	status := http.StatusOK
	if !resp.Exists && d.Summary == nil {
		status = http.StatusNotFound
	}
	p.render(w, r, status, "day", d)
}

// interleave puts entries and notes in the order of their lines; the
// notes with no entry between them become one, rendered from markdown.
func interleave(entries []entryView, notes []noteView) []itemView {
	out := make([]itemView, 0, len(entries)+len(notes))
	i, j := 0, 0
	for i < len(entries) || j < len(notes) {
		if j == len(notes) || i < len(entries) && entries[i].Line < notes[j].Line {
			out = append(out, itemView{Entry: &entries[i]})
			i++
			continue
		}
		n := notes[j]
		for j++; j < len(notes) && (i == len(entries) || notes[j].Line < entries[i].Line); j++ {
			sep := "\n"
			if notes[j].Line > n.EndLine+1 {
				sep = "\n\n" // a blank line between them: keep it, markdown reads it
			}
			n.Text += sep + notes[j].Text
			n.EndLine = notes[j].EndLine
		}
		for k := n.Line + 1; k <= n.EndLine; k++ {
			n.Lines = append(n.Lines, k)
		}
		n.HTML = renderMarkdown(n.Text)
		out = append(out, itemView{Note: &n})
	}
	return out
}

// hasPage reports whether the page of a year or a month exists: the
// period holds a day file or has a summary (see year and month).
func (p *pages) hasPage(ctx context.Context, all []dayCount, per consolidate.Period) (bool, error) {
	if holds(all, per.Range()) {
		return true, nil
	}
	s, err := p.summaries(ctx, per.Level, per.Range(), 1)
	if err != nil {
		return false, err
	}
	_, ok := s[per.String()]
	return ok, nil
}

// neighbours returns the links to the days with day files before and after
// day; "" where there is none.
func neighbours(all []dayCount, day date.Date) (prev, next string) {
	i, found := slices.BinarySearchFunc(all, day, func(dc dayCount, d date.Date) int { return dc.Date.Compare(d) })
	if i > 0 {
		prev = "/day/" + all[i-1].Date.String()
	}
	if found {
		i++
	}
	if i < len(all) {
		next = "/day/" + all[i].Date.String()
	}
	return prev, next
}
