package web

import (
	"context"
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
)

// pages renders the page's views from a Backend and the day files.
type pages struct {
	b    Backend
	opts Options
	log  *slog.Logger
	act  *activity
	tmpl map[string]*template.Template
}

func newPages(b Backend, opts Options, log *slog.Logger) (*pages, error) {
	tmpl, err := parseTemplates()
	if err != nil {
		return nil, err
	}
	return &pages{b: b, opts: opts, log: log, act: newActivity(opts.Dir, log), tmpl: tmpl}, nil
}

func (p *pages) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", p.timeline)
	mux.HandleFunc("GET /year/{year}", p.year)
	mux.HandleFunc("GET /month/{month}", p.month)
	mux.HandleFunc("GET /day/{day}", p.day)
	mux.HandleFunc("GET /search", p.search)
	mux.Handle("GET /static/", staticHandler())
	return mux
}

// layout is what every page's frame shows.
type layout struct {
	Title  string
	Query  string     // the search box
	Tag    string     // the tag filter
	Tags   []tagCount // the filter's choices
	Crumbs []crumb
}

type crumb struct{ Label, Href string }

// topTagsShown is how many tags the filter offers.
const topTagsShown = 30

// frame fills the layout from the request and the activity counts.
func (p *pages) frame(r *http.Request, title string, days []dayCount) layout {
	l := layout{Title: title, Query: r.URL.Query().Get("q"), Tag: r.URL.Query().Get("tag"), Tags: topTags(days, topTagsShown)}
	if l.Tag != "" && !hasTag(l.Tags, l.Tag) {
		l.Tags = append(l.Tags, tagCount{Name: l.Tag})
	}
	return l
}

func hasTag(tags []tagCount, t string) bool {
	for _, c := range tags {
		if c.Name == t {
			return true
		}
	}
	return false
}

// yearRow is one row of the timeline grid.
type yearRow struct {
	Year  int
	Href  string
	Total int
	Cells []cell
}

// cell is a month of the grid or a day of a month's calendar; an empty
// Label is a blank.
type cell struct {
	Label   string
	Title   string
	Href    string // "" when there is nothing to open
	N       int
	Shade   int // 0..4
	Hits    int // search hits inside it
	Current bool
}

var monthAbbr = [12]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

// grid returns the timeline rows for years (oldest first), newest first,
// months shaded by entries (of tag, when set). hits counts search hits per
// month; it may be nil.
func grid(days []dayCount, years []int, tag string, hits map[date.Month]int, today date.Date) []yearRow {
	counts := byMonth(days, tag)
	hasFiles := map[date.Month]bool{}
	for _, d := range days {
		hasFiles[d.Date.MonthOf()] = true
	}
	max := 0
	for _, n := range counts {
		max = maxInt(max, n)
	}
	what := "entries"
	if tag != "" {
		what = "entries tagged #" + tag
	}
	var rows []yearRow
	for i := len(years) - 1; i >= 0; i-- {
		y := years[i]
		row := yearRow{Year: y, Href: "/year/" + strconv.Itoa(y)}
		for m := range 12 {
			mo := date.Month{Year: y, Month: time.Month(m + 1)}
			n := counts[mo]
			c := cell{Label: monthAbbr[m], N: n, Shade: shade(n, max), Hits: hits[mo],
				Title: mo.String() + ": " + strconv.Itoa(n) + " " + what, Current: mo == today.MonthOf()}
			if hasFiles[mo] {
				c.Href = "/month/" + mo.String()
			}
			row.Total += n
			row.Cells = append(row.Cells, c)
		}
		rows = append(rows, row)
	}
	return rows
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// yearsOf returns the years that hold day files, oldest first: only
// those, so that a day file made by hand under days/2999/ adds one row, not
// the 973 empty years between.
func yearsOf(days []dayCount) []int {
	var out []int
	for _, d := range days {
		if len(out) == 0 || out[len(out)-1] != d.Date.Year {
			out = append(out, d.Date.Year)
		}
	}
	return out
}

type timelineData struct {
	layout
	Dir   string
	Years []yearRow
	Total int
}

func (p *pages) timeline(w http.ResponseWriter, r *http.Request) {
	days, err := p.act.snapshot(r.Context())
	if err != nil {
		p.fail(w, r, err)
		return
	}
	d := timelineData{layout: p.frame(r, "Timeline", days), Dir: p.opts.Dir}
	d.Years = grid(days, yearsOf(days), d.Tag, nil, p.today())
	for _, y := range d.Years {
		d.Total += y.Total
	}
	p.render(w, r, http.StatusOK, "timeline", d)
}

func (p *pages) today() date.Date { return date.Of(p.opts.Now().In(p.opts.Loc)) }

// errorData is the error page.
type errorData struct {
	layout
	Status  int
	Message string
}

// fail shows err: a backend's error as 500 (and logged), a cancelled
// request as nothing.
func (p *pages) fail(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
		return
	}
	p.log.Error("serving page", "path", r.URL.Path, "err", err)
	p.showError(w, r, http.StatusInternalServerError, err.Error())
}

func (p *pages) showError(w http.ResponseWriter, r *http.Request, status int, msg string) {
	d := errorData{layout: layout{Title: http.StatusText(status)}, Status: status, Message: msg}
	p.render(w, r, status, "error", d)
}
