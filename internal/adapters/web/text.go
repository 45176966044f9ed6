package web

import (
	"bytes"
	"html/template"
	"slices"
	"strings"

	"github.com/yuin/goldmark"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/internal/util/words"
)

// withoutTrailingTags returns text with the run of #tags that ends each of
// its lines taken off, and the tags of the entry that text still holds
// inline ("moved #atlas to Postgres"). The page shows the entry's tags as
// chips: a tag at a line's end would be shown twice.
func withoutTrailingTags(text string) (shown string, inline []string) {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		fields := strings.Fields(l)
		n := len(fields)
		for n > 0 && strings.HasPrefix(fields[n-1], "#") && len(dayfiles.Tags(fields[n-1])) == 1 && !strings.ContainsAny(fields[n-1][1:], "#") {
			n--
		}
		if n == len(fields) || n == 0 {
			continue // no tags to take off, or a line of tags only: kept as written
		}
		// Keep the line's indentation and its words up to the tags.
		indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		lines[i] = indent + strings.Join(fields[:n], " ")
	}
	shown = strings.Join(lines, "\n")
	return shown, dayfiles.Tags(shown)
}

// chips returns the tags of an entry that its shown text does not hold.
func chips(tags, inline []string) []string {
	var out []string
	for _, t := range tags {
		if !slices.Contains(inline, t) {
			out = append(out, t)
		}
	}
	return out
}

// markdown renders free text of a day file as HTML with goldmark's
// defaults: raw HTML in it is left out (goldmark writes a comment in its
// place) and links with a dangerous scheme (javascript:, vbscript:, file:,
// data: other than images) are not written as links.
var md = goldmark.New()

// renderMarkdown renders text; a text that renders to nothing but the
// comments of left-out HTML is shown as written, escaped: nothing of the
// day file is hidden.
func renderMarkdown(text string) template.HTML {
	var b bytes.Buffer
	if err := md.Convert([]byte(text), &b); err != nil || strings.TrimSpace(strings.ReplaceAll(b.String(), "<!-- raw HTML omitted -->", "")) == "" {
		return template.HTML("<p>" + template.HTMLEscapeString(text) + "</p>")
	}
	return template.HTML(b.String()) // goldmark without WithUnsafe leaves raw HTML out
}

// previewClip is about how many bytes of a summary's prose a period's
// preview shows.
const previewClip = 240

// preview returns the start of a summary's prose for a list of periods:
// whole sentences when they fill at least half of previewClip, else cut at
// a word, with " …" where it was cut.
func preview(s string) string {
	if len(s) <= previewClip {
		return s
	}
	head := words.ClipWords(s, previewClip)
	head = strings.TrimSuffix(head, " …")
	end := -1
	for _, sep := range []string{". ", "! ", "? "} {
		if i := strings.LastIndex(head+" ", sep); i > end {
			end = i
		}
	}
	if end >= previewClip/2 {
		head = head[:end+1]
	}
	return head + " …"
}
