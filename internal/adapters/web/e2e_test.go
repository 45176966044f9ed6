package web

import (
	"context"
	"github.com/daybook/daybook/internal/app/apptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/daybook/daybook/internal/app"
)

// chromiumPath is Debian's chromium; .ci/install-chromium installs it.
const chromiumPath = "/usr/bin/chromium"

// TestEndToEndInChromium loads the page in headless Chromium on a generated
// year, opens a month and a day, runs a search, follows a hit, and saves
// screenshots. DAYBOOK_E2E_SHOTS names a folder to keep them in as well.
func TestEndToEndInChromium(t *testing.T) {
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("skipping the browser test: %s is absent (run .ci/install-chromium)", chromiumPath)
	}
	if testing.Short() {
		t.Skip("skipping the browser test in -short mode")
	}
	a := apptest.New(t, corpusDir(t), apptest.At(testNow))
	// Open and catch up the index first, as the daemon does at start, so
	// that the browser's timeouts measure the page, not the indexing.
	if _, err := a.Index(context.Background()); err != nil {
		t.Fatal(err)
	}
	start := serveLoopback(t, a)
	ctx := browser(t)

	shots := t.TempDir()
	shot := func(name string) {
		t.Helper()
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		path := filepath.Join(shots, name+".png")
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		if keep := os.Getenv("DAYBOOK_E2E_SHOTS"); keep != "" {
			os.WriteFile(filepath.Join(keep, name+".png"), png, 0o644)
		}
		t.Logf("screenshot %s (%d bytes)", path, len(png))
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("reading %s: %v", sel, err)
		}
		return s
	}
	count := func(sel string) int {
		t.Helper()
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(`+strconv.Quote(sel)+`).length`))
		if err != nil {
			t.Fatalf("counting %s: %v", sel, err)
		}
		return n
	}
	do := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}

	// The timeline: the token in the address becomes a cookie.
	do("loading the timeline", chromedp.Navigate(start), chromedp.WaitVisible(chromedp.CSS(`table.grid`)))
	title, err := chromedp.Run(ctx, chromedp.Title())
	if err != nil {
		t.Fatal(err)
	}
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	if cells := count(`table.grid td.cell a`); title != "Timeline · daybook" || strings.Contains(loc, "token=") || cells < 10 {
		t.Fatalf("timeline: title %q, location %q, %d month links", title, loc, cells)
	}
	shot("timeline")

	// A month, then a day of it.
	do("opening March 2025", chromedp.Click(chromedp.CSS(`table.grid a[href="/month/2025-03"]`)),
		chromedp.WaitVisible(chromedp.CSS(`table.calendar`)))
	if h1, days := text(`main h1`), count(`ul.days li`); h1 != "March 2025" || days == 0 {
		t.Fatalf("month page: h1 %q, %d days listed", h1, days)
	}
	shot("month")
	do("opening a day", chromedp.Click(chromedp.CSS(`table.calendar a`)), chromedp.WaitVisible(chromedp.CSS(`ol.entries`)))
	if h1, entries := text(`main h1`), count(`ol.entries li.entry`); !strings.HasPrefix(h1, "2025-03-") || entries == 0 {
		t.Fatalf("day page: h1 %q, %d entries", h1, entries)
	}
	shot("day")

	// A search from the box, then a hit: the entry it points at is marked.
	words := strings.Fields(text(`ol.entries li.entry .text`))
	query := strings.Join(words[:min(6, len(words))], " ")
	do("searching", chromedp.SendKeys(chromedp.CSS(`#q`), query), chromedp.Submit(chromedp.CSS(`#q`)),
		chromedp.WaitVisible(chromedp.CSS(`ol.hits`)))
	hits := count(`ol.hits li`)
	shot("search")
	do("following a hit", chromedp.Click(chromedp.CSS(`ol.hits li a[href*="#L"]`)),
		chromedp.WaitVisible(chromedp.CSS(`li.entry.target`)))
	marked := text(`li.entry.target .text`)
	shot("hit")
	if hits == 0 || marked == "" {
		t.Fatalf("search %q: %d hits; the hit opened %q", query, hits, marked)
	}
	t.Logf("searched %q: %d hits; opened %q", query, hits, marked)
}

// browser starts headless Chromium for the test and returns its tab's
// context, with a deadline.
func browser(t *testing.T) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancelTab := chromedp.NewContext(actx, chromedp.WithLogf(t.Logf))
	t.Cleanup(cancelTab)
	ctx, cancel := context.WithTimeout(ctx, 4*time.Minute)
	t.Cleanup(cancel)

	return ctx
}

// serveLoopback serves the page for a on a loopback port until the test
// ends and returns the address that logs a browser in.
func serveLoopback(t *testing.T, a *app.App) string {
	t.Helper()
	srv, err := New(a, Options{Listen: "127.0.0.1:0", Dir: a.Dir(), Now: a.Now, Loc: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve() }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Close(ctx)
		<-done
	})
	tok, err := ReadToken(a.Dir())
	if err != nil {
		t.Fatal(err)
	}
	start, err := URL(srv.Addr().String(), tok)
	if err != nil {
		t.Fatal(err)
	}

	return start
}
