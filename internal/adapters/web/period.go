package web

import (
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/util/words"
)

// childView is a month of a year or a day of a month, with its summary.
type childView struct {
	Label   string
	Href    string
	N       int // entries (of the tag filter, when set)
	Notes   int
	Error   string // the day file could not be parsed
	Summary *daybook.SummaryInfo
}

type yearData struct {
	layout
	Year       int
	Summary    *summaryView
	Row        []yearRow
	Months     []childView
	Prev, Next int // the nearest years with day files; 0 for none
}

func (p *pages) year(w http.ResponseWriter, r *http.Request) {
	y, err := strconv.Atoi(r.PathValue("year"))
	if err != nil || y < 1 || y > 9999 {
		p.showError(w, r, http.StatusNotFound, "no such year "+strconv.Quote(r.PathValue("year"))+": want YYYY")
		return
	}
	ctx := r.Context()
	days, err := p.act.snapshot(ctx)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	per := consolidate.YearPeriod(y)
	d := yearData{layout: p.frame(r, strconv.Itoa(y), days), Year: y}
	for _, yy := range yearsOf(days) {
		if yy < y {
			d.Prev = yy
		} else if yy > y && d.Next == 0 {
			d.Next = yy
		}
	}
	d.Crumbs = []crumb{{"Timeline", "/"}, {strconv.Itoa(y), ""}}
	if d.Summary, err = p.summary(ctx, per); err != nil {
		p.fail(w, r, err)
		return
	}
	if d.Summary == nil && !holds(days, per.Range()) {
		p.showError(w, r, http.StatusNotFound, "Nothing is filed in "+strconv.Itoa(y)+": no day files under days/"+strconv.Itoa(y)+"/.")
		return
	}
	d.Row = grid(days, []int{y}, d.Tag, nil, p.today())
	sums, err := p.summaries(ctx, date.LevelMonth, per.Range(), 12)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	for _, c := range d.Row[0].Cells {
		mo := date.Month{Year: y, Month: time.Month(len(d.Months) + 1)}
		v := childView{Label: time.Month(len(d.Months) + 1).String(), Href: c.Href, N: c.N}
		if s, ok := sums[mo.String()]; ok {
			v.Summary = &s
			v.Href = "/month/" + mo.String()
		}
		d.Months = append(d.Months, v)
	}
	p.render(w, r, http.StatusOK, "year", d)
}

type monthData struct {
	layout
	Month      string
	Summary    *summaryView
	Weekdays   []string
	Weeks      [][]cell
	Days       []childView
	Prev, Next string
}

func (p *pages) month(w http.ResponseWriter, r *http.Request) {
	mo, err := date.ParseMonth(r.PathValue("month"))
	if err != nil {
		p.showError(w, r, http.StatusNotFound, "no such month "+strconv.Quote(r.PathValue("month"))+": want YYYY-MM")
		return
	}
	ctx := r.Context()
	all, err := p.act.snapshot(ctx)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	per := consolidate.MonthPeriod(mo)
	d := monthData{layout: p.frame(r, mo.First().In(time.UTC).Format("January 2006"), all), Month: mo.String(),
		Weekdays: []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}}
	d.Crumbs = []crumb{{"Timeline", "/"}, {strconv.Itoa(mo.Year), "/year/" + strconv.Itoa(mo.Year)}, {mo.String(), ""}}
	d.Prev, d.Next = neighbourMonths(all, mo)
	if d.Summary, err = p.summary(ctx, per); err != nil {
		p.fail(w, r, err)
		return
	}
	if d.Summary == nil && !holds(all, per.Range()) {
		p.showError(w, r, http.StatusNotFound, "Nothing is filed in "+mo.String()+": no day files under days/"+
			strconv.Itoa(mo.Year)+"/"+mo.String()[5:]+"/.")
		return
	}
	sums, err := p.summaries(ctx, date.LevelDay, mo.Range(), 31)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	listed, err := p.b.Days(ctx, daybook.DaysRequest{From: mo.First().String(), To: mo.Last().String()})
	if err != nil {
		p.fail(w, r, err)
		return
	}
	counts := map[date.Date]dayCount{}
	max := 0
	for _, dc := range all {
		if dc.Date.MonthOf() == mo {
			counts[dc.Date] = dc
			max = maxInt(max, dc.count(d.Tag))
		}
	}
	for _, info := range listed.Days {
		day, err := date.Parse(info.Date)
		if err != nil {
			continue
		}
		v := childView{Label: day.String() + " " + day.Weekday().String()[:3], Href: "/day/" + info.Date,
			N: info.Entries, Notes: info.Notes, Error: info.Error}
		if d.Tag != "" {
			v.N = counts[day].count(d.Tag)
		}
		if s, ok := sums[info.Date]; ok {
			v.Summary = &s
		}
		d.Days = append(d.Days, v)
	}
	d.Weeks = calendar(mo, counts, max, d.Tag, p.today())
	p.render(w, r, http.StatusOK, "month", d)
}

// neighbourMonths returns the links to the nearest months with day files
// before and after mo; "" where there is none.
func neighbourMonths(all []dayCount, mo date.Month) (prev, next string) {
	for _, dc := range all {
		m := dc.Date.MonthOf()
		switch {
		case m.First().Before(mo.First()):
			prev = "/month/" + m.String()
		case m.First().After(mo.First()) && next == "":
			next = "/month/" + m.String()
		}
	}
	return prev, next
}

// holds reports whether any day of days (oldest first) falls in r.
func holds(days []dayCount, r date.Range) bool {
	i, _ := slices.BinarySearchFunc(days, r.From, func(dc dayCount, d date.Date) int { return dc.Date.Compare(d) })
	return i < len(days) && r.Contains(days[i].Date)
}

// calendar lays a month out in weeks from Monday, days shaded by entries.
func calendar(mo date.Month, counts map[date.Date]dayCount, max int, tag string, today date.Date) [][]cell {
	var weeks [][]cell
	week := make([]cell, (int(mo.First().Weekday())+6)%7)
	for day := mo.First(); day.MonthOf() == mo; day = day.AddDays(1) {
		dc, ok := counts[day]
		n := dc.count(tag)
		c := cell{Label: strconv.Itoa(day.Day), N: n, Shade: shade(n, max), Current: day == today,
			Title: day.String() + ": " + words.Count(n, "entry")}
		if ok {
			c.Href = "/day/" + day.String()
		}
		week = append(week, c)
		if len(week) == 7 {
			weeks = append(weeks, week)
			week = nil
		}
	}
	if len(week) > 0 {
		for len(week) < 7 {
			week = append(week, cell{})
		}
		weeks = append(weeks, week)
	}
	return weeks
}
