package web

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/app/apptest"
)

func TestStaleAndHandEditedSummariesAreMarked(t *testing.T) {
	ctx := context.Background()
	a := apptest.New(t, t.TempDir(), apptest.At(testNow))
	for _, r := range []daybook.RememberRequest{
		{Text: "Chose the blue paint for the hall #house", Kind: "decision", At: "2025-03-04 09:00"},
		{Text: "Bought brushes #house", At: "2025-03-05 10:00"},
	} {
		if _, err := a.Remember(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := a.Consolidate(ctx, daybook.ConsolidateRequest{}); err != nil {
		t.Fatal(err)
	}
	// The 4th changes after its summary was written: stale. A person
	// rewrites the summary of the 5th: hand-edited.
	if _, err := a.Remember(ctx, daybook.RememberRequest{Text: "Second coat tomorrow", At: "2025-03-04 18:00"}); err != nil {
		t.Fatal(err)
	}
	path := consolidate.DayPeriod(date.MustParse("2025-03-05")).Path(a.Dir())
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), "Bought brushes", "Bought two good brushes (my note)", 1)
	if edited == string(data) {
		t.Fatalf("the summary of 2025-03-05 does not hold the entry's text:\n%s", data)
	}
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}

	// A comment in the front matter of the year's summary is an edit too.
	ypath := consolidate.YearPeriod(2025).Path(a.Dir())
	ydata, err := os.ReadFile(ypath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ypath, []byte(strings.Replace(string(ydata), "---\n", "---\n# checked by hand\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}

	s := newSite(t, a)
	year := s.mustGet(t, "/year/2025")
	mustContain(t, "year summary", year[:strings.Index(year, `id="summary"`)+300], "badge edited")
	day4 := s.mustGet(t, "/day/2025-03-04")
	mustContain(t, "2025-03-04", day4, `<span class="badge stale"`)
	if strings.Contains(day4, `badge edited`) {
		t.Error("2025-03-04 is marked hand-edited")
	}
	day5 := s.mustGet(t, "/day/2025-03-05")
	mustContain(t, "2025-03-05", day5, `<span class="badge edited"`, "Bought two good brushes (my note)")
	if strings.Contains(day5, `badge stale`) {
		t.Error("2025-03-05 is marked stale")
	}
	// The month lists both days with their marks, and its own summary is
	// stale: a day below it changed.
	month := s.mustGet(t, "/month/2025-03")
	i4, i5 := strings.Index(month, `href="/day/2025-03-04">2025-03-04`), strings.Index(month, `href="/day/2025-03-05">2025-03-05`)
	if i4 < 0 || i5 < i4 {
		t.Fatalf("the month does not list both days")
	}
	mustContain(t, "2025-03-04 in the month", month[i4:i5], "badge stale")
	mustContain(t, "2025-03-05 in the month", month[i5:], "badge edited")
	mustContain(t, "month summary", month[:strings.Index(month, `id="summary"`)+300], "badge stale")
}

func TestEntryTextIsEscaped(t *testing.T) {
	ctx := context.Background()
	a := apptest.New(t, t.TempDir(), apptest.At(testNow))
	evil := `<script>alert("x")</script> & <img src=x onerror=alert(1)> #xss`
	if _, err := a.Remember(ctx, daybook.RememberRequest{Text: evil, Kind: "decision", At: "2025-05-06 08:00"}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Consolidate(ctx, daybook.ConsolidateRequest{}); err != nil {
		t.Fatal(err)
	}
	s := newSite(t, a)
	for _, path := range []string{"/day/2025-05-06", "/month/2025-05", "/year/2025", "/search?q=alert+script", "/?tag=xss"} {
		body := s.mustGet(t, path)
		if strings.Contains(body, "<script>alert") || strings.Contains(body, "<img src=x") {
			t.Errorf("%s holds the entry's markup unescaped", path)
		}
	}
	day := s.mustGet(t, "/day/2025-05-06")
	mustContain(t, "day page", day, `&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(1)&gt;`)
	search := s.mustGet(t, "/search?q=alert+script")
	mustContain(t, "search", search, `&lt;`, `href="/day/2025-05-06#L`)
}
