package web

import (
	"context"
	"fmt"
	"html"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/app/apptest"
	"github.com/daybook/daybook/internal/util/words"
)

// monthCounts sums the entries per month from the App's own listing.
func monthCounts(t *testing.T, b Backend) map[date.Month]int {
	t.Helper()
	resp, err := b.Days(context.Background(), daybook.DaysRequest{})
	if err != nil {
		t.Fatal(err)
	}
	m := map[date.Month]int{}
	for _, d := range resp.Days {
		m[date.MustParse(d.Date).MonthOf()] += d.Entries
	}
	return m
}

func TestTimelineShowsYearsAndMonthsWithCounts(t *testing.T) {
	a := apptest.New(t, corpusDir(t), apptest.At(testNow))
	s := newSite(t, a)
	body := s.mustGet(t, "/")
	counts := monthCounts(t, a)
	if len(counts) < 10 {
		t.Fatalf("the corpus has %d months with entries", len(counts))
	}
	mustContain(t, "timeline", body, `href="/year/2025"`, `data-year="2025"`)
	total := 0
	for mo, n := range counts {
		total += n
		// The cell names the month and its count, and links to the month.
		mustContain(t, "timeline", body,
			fmt.Sprintf(`title="%s: %d entries"`, mo, n),
			fmt.Sprintf(`href="/month/%s"><span class="n">%d</span>`, mo, n))
	}
	mustContain(t, "timeline", body, fmt.Sprintf("%d entries in 1 year", total))
	// The busiest month has the darkest shade.
	busiest, most := date.Month{}, 0
	for mo, n := range counts {
		if n > most {
			busiest, most = mo, n
		}
	}
	re := regexp.MustCompile(`class="cell s4[^"]*" title="` + busiest.String() + `:`)
	if !re.MatchString(body) {
		t.Errorf("the busiest month %s (%d entries) is not shaded s4", busiest, most)
	}
}

func TestTagFilterShadesMonthsByTag(t *testing.T) {
	a := apptest.New(t, corpusDir(t), apptest.At(testNow))
	s := newSite(t, a)
	body := s.mustGet(t, "/")
	m := regexp.MustCompile(`<option value="([a-z0-9_-]+)">#[a-z0-9_-]+ \((\d+)\)</option>`).FindStringSubmatch(body)
	if m == nil {
		t.Fatal("the timeline offers no tags to filter by")
	}
	tag := m[1]
	want, _ := strconv.Atoi(m[2])
	// Count the tag's entries per month from the day files themselves.
	resp, err := a.Days(context.Background(), daybook.DaysRequest{})
	if err != nil {
		t.Fatal(err)
	}
	perMonth := map[date.Month]int{}
	sum := 0
	for _, d := range resp.Days {
		day, err := a.Day(context.Background(), daybook.DayRequest{Date: d.Date})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range day.Entries {
			for _, tg := range e.Tags {
				if tg == tag {
					perMonth[date.MustParse(d.Date).MonthOf()]++
					sum++
				}
			}
		}
	}
	if sum != want {
		t.Fatalf("the dropdown says #%s has %d entries; the day files hold %d", tag, want, sum)
	}
	filtered := s.mustGet(t, "/?tag="+tag)
	mustContain(t, "filtered timeline", filtered, `<option value="`+tag+`" selected>`,
		fmt.Sprintf("%d entries tagged #%s", sum, tag))
	for mo, n := range perMonth {
		mustContain(t, "filtered timeline", filtered,
			fmt.Sprintf(`title="%s: %d entries tagged #%s"`, mo, n, tag),
			fmt.Sprintf(`href="/month/%s?tag=%s"`, mo, tag))
	}
}

func TestMonthPageListsItsDays(t *testing.T) {
	a := apptest.New(t, corpusDir(t), apptest.At(testNow))
	s := newSite(t, a)
	resp, err := a.Days(context.Background(), daybook.DaysRequest{From: "2025-03-01", To: "2025-03-31"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Days) == 0 {
		t.Fatal("no days in March 2025")
	}
	body := s.mustGet(t, "/month/2025-03")
	mustContain(t, "month page", body, "<h1>March 2025</h1>", `href="/year/2025"`)
	for _, d := range resp.Days {
		mustContain(t, "month page", body, fmt.Sprintf(`href="/day/%s">%s`, d.Date, d.Date),
			fmt.Sprintf(`title="%s: %s"`, d.Date, words.CountAs(d.Entries, "entry", "entries")))
	}
	// The month's summary and its decisions, linked to their lines.
	sum, err := a.Browse(context.Background(), daybook.BrowseRequest{Level: "month", From: "2025-03-01", To: "2025-03-31"})
	if err != nil || len(sum.Summaries) != 1 {
		t.Fatalf("browse: %v %+v", err, sum)
	}
	mustContain(t, "month page", body, html.EscapeString(sum.Summaries[0].Path))
	if !regexp.MustCompile(`href="/day/2025-03-\d\d#L\d+"`).MatchString(body) {
		t.Error("the month page links no decision to its line")
	}
	if code, _ := s.get(t, "/month/2025-13"); code != 404 {
		t.Errorf("month 2025-13: status %d, want 404", code)
	}
}

func TestDayPageShowsEntriesAndDecisions(t *testing.T) {
	a := apptest.New(t, corpusDir(t), apptest.At(testNow))
	s := newSite(t, a)
	ctx := context.Background()
	days, err := a.Days(ctx, daybook.DaysRequest{From: "2025-01-01", To: "2025-12-31"})
	if err != nil {
		t.Fatal(err)
	}
	var day daybook.DayResponse
	var decision *daybook.Entry
	for _, d := range days.Days {
		if day, err = a.Day(ctx, daybook.DayRequest{Date: d.Date}); err != nil {
			t.Fatal(err)
		}
		for i, e := range day.Entries {
			if e.Kind == string(dayfiles.KindDecision) {
				decision = &day.Entries[i]
			}
		}
		if decision != nil {
			break
		}
	}
	if decision == nil {
		t.Fatal("the corpus has no decision")
	}
	body := s.mustGet(t, "/day/"+day.Date)
	shown, _ := withoutTrailingTags(decision.Text)
	mustContain(t, "day page", body, "<h2>Decisions</h2>",
		fmt.Sprintf(`<li><a href="#L%d">%s</a> <span class="text">%s</span></li>`, decision.Line, decision.Time, html.EscapeString(shown)),
		`href="/month/`+day.Date[:7]+`"`)
	for _, e := range day.Entries {
		shown, _ := withoutTrailingTags(e.Text)
		mustContain(t, "day page", body, fmt.Sprintf(`<li id="L%d" class="entry kind-%s`, e.Line, e.Kind),
			`<span class="text">`+html.EscapeString(shown)+`</span>`)
	}
	// The decisions are listed once: not again in the summary card.
	if n := strings.Count(body, `<ul class="decisions">`); n != 1 {
		t.Errorf("the day page lists the decisions %d times, want once", n)
	}
	if code, _ := s.get(t, "/day/2031-02-30"); code != 404 {
		t.Errorf("day 2031-02-30: status %d, want 404", code)
	}
	if code, _ := s.get(t, "/day/2030-01-01"); code != 404 {
		t.Errorf("a day without a file or a summary: status %d, want 404", code)
	}
}

func TestSearchReturnsHitsWithLinks(t *testing.T) {
	a := apptest.New(t, corpusDir(t), apptest.At(testNow))
	s := newSite(t, a)
	ctx := context.Background()
	day, err := a.Day(ctx, daybook.DayRequest{Date: "2025-06-10"})
	if err != nil || len(day.Entries) == 0 {
		day, err = a.Day(ctx, daybook.DayRequest{Date: "2025-06-11"})
	}
	if err != nil || len(day.Entries) == 0 {
		t.Fatalf("no entries to look for: %v", err)
	}
	want := day.Entries[0]
	q := want.Text
	if len(q) > 80 {
		q = q[:80]
	}
	body := s.mustGet(t, "/search?q="+url.QueryEscape(q+" in June 2025"))
	mustContain(t, "search", body, "2025-06-01..2025-06-30",
		fmt.Sprintf(`href="/day/%s#L%d"`, want.Date, want.Line), "<mark>")
	// The month that holds the hit is marked on the timeline below.
	if !regexp.MustCompile(`class="cell s\d hit" title="2025-06:`).MatchString(body) {
		t.Error("June 2025 is not marked as holding hits")
	}
	// The link lands on the entry.
	page := s.mustGet(t, fmt.Sprintf("/day/%s", want.Date))
	mustContain(t, "day page", page, fmt.Sprintf(`id="L%d"`, want.Line))
}

func TestSearchWithoutQueryAndWithBadQuery(t *testing.T) {
	a := apptest.New(t, corpusDir(t), apptest.At(testNow))
	s := newSite(t, a)
	body := s.mustGet(t, "/search")
	mustContain(t, "empty search", body, "Type words")
	code, body := s.get(t, "/search?q="+url.QueryEscape("billing")+"&tag=x%22%3E%3Cscript%3E")
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	if regexp.MustCompile(`"><script>`).MatchString(body) {
		t.Error("the tag parameter reaches the page unescaped")
	}
}
