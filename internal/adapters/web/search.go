package web

import (
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
)

// searchLimit is how many hits a search shows.
const searchLimit = 30

// hitView is one recall hit with the page it opens.
type hitView struct {
	Level   string
	Period  string
	Href    string
	Snippet template.HTML
	Path    string
	Line    int
	Score   float64
}

type searchData struct {
	layout
	Searched bool
	Range    string
	Method   string
	Hits     []hitView
	Err      string
	Years    []yearRow // the timeline, with the months that hold hits marked
}

func (p *pages) search(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	all, err := p.act.snapshot(ctx)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	d := searchData{layout: p.frame(r, "Search", all)}
	d.Query = strings.TrimSpace(d.Query)
	d.Crumbs = []crumb{{"Timeline", "/"}, {"Search", ""}}
	status := http.StatusOK
	hits := map[date.Month]int{}
	if d.Query != "" {
		d.Searched = true
		d.Title = "Search: " + d.Query
		resp, err := p.b.Recall(ctx, daybook.RecallRequest{Query: d.Query, Limit: searchLimit})
		switch {
		case err != nil && ctx.Err() != nil:
			return
		case err != nil:
			// A query recall refuses (too long, a phrase it cannot place)
			// is shown on the page; the log has the rest.
			p.log.Warn("search failed", "err", err)
			d.Err, status = err.Error(), http.StatusBadRequest
		default:
			d.Range, d.Method = resp.Range, resp.Method.String()
			for _, h := range resp.Results {
				v := hitOf(h)
				d.Hits = append(d.Hits, v)
				if mo, ok := monthOfPeriod(h.Period); ok {
					hits[mo]++
				}
			}
		}
	}
	d.Years = grid(all, yearsOf(all), d.Tag, hits, p.today())
	p.render(w, r, status, "search", d)
}

// hitOf links a hit to its page: a year, a month, or the line on a day's
// page.
func hitOf(h daybook.RecallResult) hitView {
	v := hitView{Level: h.Level, Period: h.Period, Snippet: markSnippet(h.Snippet), Path: h.Path, Line: h.Line, Score: h.Score}
	switch h.Level {
	case "year":
		v.Href = "/year/" + h.Period
	case "month":
		v.Href = "/month/" + h.Period
	case "day":
		v.Href = "/day/" + h.Period
	default: // entry, line
		v.Href = "/day/" + h.Period
		if h.Line > 0 {
			v.Href += "#L" + strconv.Itoa(h.Line)
		}
	}
	return v
}

// monthOfPeriod returns the month of a month's or a day's period.
func monthOfPeriod(s string) (date.Month, bool) {
	if len(s) >= 7 {
		if mo, err := date.ParseMonth(s[:7]); err == nil {
			return mo, true
		}
	}
	return date.Month{}, false
}
