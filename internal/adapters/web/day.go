package web

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/util/date"
)

// entryView is an entry on its day's page. Lines are the anchors of its
// lines after the first, so that a link to any of them lands on it.
type entryView struct {
	api.Entry
	Lines  []int
	Tagged bool // it carries the tag filter's tag
}

// noteView is free text of a day file.
type noteView struct {
	Line int
	Text string
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
	resp, err := p.b.Day(ctx, api.DayRequest{Date: day.String()})
	if err != nil {
		p.fail(w, r, err)
		return
	}
	d := dayData{layout: p.frame(r, day.String(), all), Date: day.String(), Weekday: day.Weekday().String(),
		Path: resp.Path, Exists: resp.Exists}
	mo := day.MonthOf()
	d.Crumbs = []crumb{{"Timeline", "/"}, {strconv.Itoa(day.Year), "/year/" + strconv.Itoa(day.Year)},
		{mo.String(), "/month/" + mo.String()}, {day.String(), ""}}
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
				d.Notes = append(d.Notes, noteView{Line: n.Line, Text: n.Text})
			}
		}
	}
	status := http.StatusOK
	if !resp.Exists && d.Summary == nil {
		status = http.StatusNotFound
	}
	p.render(w, r, status, "day", d)
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
