package web

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/app/apptest"
)

// notesDay is a day file with free text between its entries: markdown,
// raw HTML and a javascript: link among it.
const notesDay = `# 2025-12-30 Tuesday

Morning pages, **in bold**, with a [link](https://example.com/x) and a list:

- first thing
- second thing

- 09:00 [decision] Decided to move the backups to the attic #home #ops
  Context: the basement floods in spring.
  Next step: ask Lena to check the shelf.
- 10:00 Lunch with #lena at the corner cafe #food

<script>alert(1)</script> A [bad link](javascript:alert(2)).
`

func writeNotesDay(t *testing.T, dir string) {
	t.Helper()
	p := dayfiles.Path(dir, date.MustParse("2025-12-30"))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(notesDay), 0o644); err != nil {
		t.Fatal(err)
	}
}

var liStart = regexp.MustCompile(`<li id="L\d+" class="(entry|note)`)

// items returns the day's items (entries and notes) of a day page, each
// from its start to the next one's.
func items(body string) (kinds, html []string) {
	end := strings.Index(body, "</ol>\n</section>")
	if end < 0 {
		end = len(body)
	}
	starts := liStart.FindAllStringSubmatchIndex(body[:end], -1)
	for k, m := range starts {
		stop := end
		if k+1 < len(starts) {
			stop = starts[k+1][0]
		}
		kinds = append(kinds, body[m[2]:m[3]])
		html = append(html, body[m[0]:stop])
	}
	return kinds, html
}

// TestDayPageShowsEachTagOnceAndRendersNotes: every entry's tag appears
// once (in its text or as a chip, not both); a decision keeps its
// follow-on lines apart; the free text is rendered from markdown, safely,
// in its place between the entries.
func TestDayPageShowsEachTagOnceAndRendersNotes(t *testing.T) {
	dir := t.TempDir()
	writeNotesDay(t, dir)
	a := apptest.New(t, dir, apptest.At(testNow))
	s := newSite(t, a)
	body := s.mustGet(t, "/day/2025-12-30")

	kinds, lis := items(body)
	if strings.Join(kinds, " ") != "note entry entry note" {
		t.Fatalf("the day's items in page order: %v, want the file's order: note entry entry note", kinds)
	}
	for tag, li := range map[string]string{"home": lis[1], "ops": lis[1], "lena": lis[2], "food": lis[2]} {
		if n := strings.Count(li, "#"+tag); n != 1 {
			t.Errorf("#%s shows %d times in its entry, want once:\n%s", tag, n, li)
		}
	}
	// The decision's lines stay lines.
	mustContain(t, "day page", body, "<span class=\"text\">Decided to move the backups to the attic\nContext: the basement floods in spring.\nNext step: ask Lena to check the shelf.</span>")
	css, err := staticFS.ReadFile("static/app.css")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`ul\.decisions li \.text \{[^}]*white-space: pre-line`).Match(css) {
		t.Error("the decisions' text does not keep its lines (white-space: pre-line)")
	}
	// The notes are markdown rendered, not raw in monospace.
	mustContain(t, "day page", lis[0], "<strong>in bold</strong>", `<a href="https://example.com/x">link</a>`, "<li>second thing</li>")
	if strings.Contains(lis[0], "<pre>") || strings.Contains(lis[0], "**") {
		t.Errorf("the note is shown raw:\n%s", lis[0])
	}
	if strings.Contains(body, "<script>alert") || strings.Contains(body, `href="javascript:`) {
		t.Errorf("the note's raw HTML or javascript: link reaches the page:\n%s", lis[3])
	}
	// A note of raw HTML is shown as written, escaped, not left out.
	mustContain(t, "day page", lis[3], "&lt;script&gt;alert(1)&lt;/script&gt; A [bad link](javascript:alert(2)).")
}

// TestYearPreviewsEndInASentenceOrAnEllipsis: a month's preview on its
// year's page is its whole prose, or its start cut at a sentence or a
// word with "…".
func TestYearPreviewsEndInASentenceOrAnEllipsis(t *testing.T) {
	a := apptest.New(t, corpusDir(t), apptest.At(testNow))
	s := newSite(t, a)
	body := s.mustGet(t, "/year/2025")
	resp, err := a.Browse(context.Background(), daybook.BrowseRequest{Level: "month", From: "2025-01-01", To: "2025-12-31"})
	if err != nil {
		t.Fatal(err)
	}
	previews := regexp.MustCompile(`(?s)<div class="prose short">(.*?)</div>`).FindAllStringSubmatch(body, -1)
	if len(previews) != len(resp.Summaries) || len(previews) == 0 {
		t.Fatalf("%d previews for %d month summaries", len(previews), len(resp.Summaries))
	}
	css, err := staticFS.ReadFile("static/app.css")
	if err != nil {
		t.Fatal(err)
	}
	if regexp.MustCompile(`\.prose\.short \{[^}]*overflow: hidden`).Match(css) {
		t.Error("previews are cut by the style sheet, mid-line")
	}
	for _, p := range previews {
		text := p[1]
		if len(text) > previewClip+10 {
			t.Errorf("a preview of %d bytes: %.80q…", len(text), text)
		}
		if !strings.HasSuffix(text, " …") && !strings.HasSuffix(text, ".") {
			t.Errorf("a preview ends mid-sentence without an ellipsis: …%q", text[max(0, len(text)-60):])
		}
	}
}

// TestDayWithoutFile: a day with no file says so, not "not summarized
// yet", and every link of its page leads to a page that exists.
func TestDayWithoutFile(t *testing.T) {
	a := apptest.New(t, corpusDir(t), apptest.At(testNow))
	s := newSite(t, a)
	for _, day := range []string{"1999-01-01", "2025-03-32", "2024-12-31"} {
		code, body := s.get(t, "/day/"+day)
		if code != 404 {
			t.Errorf("/day/%s: status %d, want 404", day, code)
		}
		if day == "2025-03-32" {
			continue // not a day
		}
		mustContain(t, "/day/"+day, body, "No day file for "+day)
		if strings.Contains(body, "Not summarized yet") || strings.Contains(body, "daybook consolidate") {
			t.Errorf("/day/%s tells to consolidate a day that has no file", day)
		}
		for _, m := range regexp.MustCompile(`href="(/[^"#?]*)`).FindAllStringSubmatch(body, -1) {
			if strings.HasPrefix(m[1], "/static/") {
				continue
			}
			if code, _ := s.get(t, m[1]); code != 200 {
				t.Errorf("/day/%s links to %s, which answers %d", day, m[1], code)
			}
		}
	}
	// A day with a file links its year and month.
	body := s.mustGet(t, "/day/2025-03-03")
	mustContain(t, "/day/2025-03-03", body, `href="/year/2025"`, `href="/month/2025-03"`)
}
