package web

import (
	"regexp"
	"strings"
	"testing"

	"github.com/daybook/daybook/internal/app/apptest"
	"github.com/daybook/daybook/internal/daybooktest"
)

// A day file made by hand under days/2999/ adds one row to the timeline,
// not the 973 empty years before it.
func TestTimelineRendersOnlyYearsWithDayFiles(t *testing.T) {
	dir := t.TempDir()
	daybooktest.WriteFile(t, dir, "days/2025/03/04.md", "# 2025-03-04 Tuesday\n\n- 09:00 Planted the beans\n")
	daybooktest.WriteFile(t, dir, "days/2999/01/01.md", "# 2999-01-01 Tuesday\n\n- 09:00 A note from the future\n")
	s := newSite(t, apptest.New(t, dir, apptest.At(testNow)))
	body := s.mustGet(t, "/")
	rows := regexp.MustCompile(`<tr data-year="(\d+)">`).FindAllStringSubmatch(body, -1)
	var years []string
	for _, r := range rows {
		years = append(years, r[1])
	}
	if strings.Join(years, ",") != "2999,2025" {
		t.Errorf("timeline rows = %v, want only 2999 and 2025", years)
	}
	mustContain(t, "timeline", body, "2 entries in 2 years")
	// The year page pages to the next year that holds day files.
	year := s.mustGet(t, "/year/2025")
	mustContain(t, "year 2025", year, `href="/year/2999" rel="next"`)
	if strings.Contains(year, `href="/year/2024"`) {
		t.Error("the year page links to 2024, which holds nothing")
	}
}

// A year or a month with no day files and no summary says there is
// nothing there, with a 404, rather than promising a summary.
func TestEmptyYearAndMonthSayNothingIsThere(t *testing.T) {
	dir := t.TempDir()
	daybooktest.WriteFile(t, dir, "days/2025/03/04.md", "# 2025-03-04 Tuesday\n\n- 09:00 Planted the beans\n")
	s := newSite(t, apptest.New(t, dir, apptest.At(testNow)))
	for path, want := range map[string]string{
		"/year/1999":     "Nothing is filed in 1999",
		"/month/1999-04": "Nothing is filed in 1999-04",
	} {
		code, body := s.get(t, path)
		if code != 404 || !strings.Contains(body, want) || strings.Contains(body, "Not summarized yet") {
			t.Errorf("%s: status %d, want 404 saying %q\n%s", path, code, want, body)
		}
	}
	s.mustGet(t, "/year/2025")
	s.mustGet(t, "/month/2025-03")
}
