package web

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/daybook/daybook/internal/app/apptest"
)

// TestDayAndYearPagesInChromium looks at the pages of issue 28 in headless
// Chromium: a day with notes and a decision of several lines, a year's
// month previews, and a day that has no file; screenshots go to
// DAYBOOK_E2E_SHOTS when it is set.
func TestDayAndYearPagesInChromium(t *testing.T) {
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("skipping the browser test: %s is absent (run .ci/install-chromium)", chromiumPath)
	}
	if testing.Short() {
		t.Skip("skipping the browser test in -short mode")
	}
	notes := t.TempDir()
	writeNotesDay(t, notes)
	notesSite := serveLoopback(t, apptest.New(t, notes, apptest.At(testNow)))
	corpusSite := serveLoopback(t, apptest.New(t, corpusDir(t), apptest.At(testNow)))
	ctx := browser(t)
	eval := func(what, js string) any {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[any](js))
		if err != nil {
			t.Errorf("%s: %v", what, err) // go on: the next page may tell more
		}
		return v
	}
	open := func(url, sel, name string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(sel))); err != nil {
			t.Fatalf("opening %s: %v", url, err)
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		if keep := os.Getenv("DAYBOOK_E2E_SHOTS"); keep != "" {
			if err := os.WriteFile(filepath.Join(keep, name+".png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	root := func(site string) string { return strings.SplitN(site, "/?", 2)[0] }

	// A day with notes: rendered, in their place; each tag once; the
	// decision's lines on lines of their own.
	open(notesSite, "table.grid", "notes-timeline")
	open(root(notesSite)+"/day/2025-12-30", "ol.entries", "day-notes")
	if v := eval("decision lines", `document.querySelector("ul.decisions li .text").innerText.split("\n").length`); v != float64(3) {
		t.Errorf("the decision shows %v lines, want 3", v)
	}
	if v := eval("bold in notes", `document.querySelectorAll("li.note strong").length`); v != float64(1) {
		t.Errorf("%v bold words in the notes, want the note's markdown rendered", v)
	}
	if v := eval("tags", `[...document.querySelectorAll("li.entry")].map(li => (li.innerText.match(/#(home|ops|lena|food)\b/g) || []).length).join(",")`); v != "2,2" {
		t.Errorf("tags shown per entry: %v, want 2,2 (each of its two tags once)", v)
	}
	if v := eval("order", `[...document.querySelectorAll("ol.entries > li")].map(li => li.className.split(" ")[0]).join(",")`); v != "note,entry,entry,note" {
		t.Errorf("the items in the page: %v, want note,entry,entry,note", v)
	}

	// The year's month previews: not cut by the style sheet, each ending
	// with a sentence or an ellipsis.
	open(corpusSite, "table.grid", "timeline")
	open(root(corpusSite)+"/year/2025", "ul.periods", "year")
	if v := eval("clipped previews", `[...document.querySelectorAll(".prose.short")].filter(e => e.scrollHeight > e.clientHeight + 1).length`); v != float64(0) {
		t.Errorf("%v month previews are clipped by the page", v)
	}
	if v := eval("preview ends", `[...document.querySelectorAll(".prose.short")].filter(e => !/(…|\.)$/.test(e.innerText.trim())).length`); v != float64(0) {
		t.Errorf("%v month previews end mid-sentence without an ellipsis", v)
	}

	// A day without a file says so and links nothing that is missing.
	open(root(corpusSite)+"/day/1999-01-01", "main h1", "day-without-file")
	if v, _ := eval("no file", `document.querySelector("main").innerText`).(string); !strings.Contains(v, "No day file for 1999-01-01") || strings.Contains(v, "Not summarized yet") {
		t.Errorf("/day/1999-01-01 says:\n%s", v)
	}
	if v := eval("crumbs", `[...document.querySelectorAll("nav.crumbs a")].map(a => a.getAttribute("href")).join(",")`); v != "/" {
		t.Errorf("/day/1999-01-01's breadcrumbs link %v, want only the timeline", v)
	}
}
