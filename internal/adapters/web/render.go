package web

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"strings"

	"github.com/daybook/daybook/internal/util/words"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// pageNames are the templates under templates/ that are whole pages; each
// is parsed with layout.html and grid.html.
var pageNames = []string{"timeline", "year", "month", "day", "search", "error"}

// parseTemplates parses every page with the layout.
func parseTemplates() (map[string]*template.Template, error) {
	funcs := template.FuncMap{
		"withTag": withTag,
		"mark":    markSnippet,
		"plural":  words.CountAs,
		"gridArgs": func(years []yearRow, tag string) gridArgs {
			return gridArgs{Years: years, Tag: tag, Months: monthAbbr}
		},
		"long":    func(s string) bool { return len(s) > proseClip },
		"clip":    clip,
		"preview": preview,
		"add":     func(a, b int) int { return a + b },
		"sub":     func(a, b int) int { return a - b },
	}
	out := map[string]*template.Template{}
	for _, name := range pageNames {
		t, err := template.New(name).Funcs(funcs).ParseFS(templateFS,
			"templates/layout.html", "templates/parts.html", "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("parsing template %s: %w", name, err)
		}
		out[name] = t
	}
	return out, nil
}

// gridArgs is what the "grid" template takes.
type gridArgs struct {
	Years  []yearRow
	Tag    string
	Months [12]string
}

// staticHandler serves the embedded CSS and JavaScript under /static/.
func staticHandler() http.Handler {
	sub, err := fs.Sub(staticFS, "static")
	if err != nil {
		panic(err) // the embed pattern guarantees the folder
	}
	return http.StripPrefix("/static/", http.FileServerFS(sub))
}

// render executes page into a buffer first, so that a failure is a clean
// 500 rather than half a page.
func (p *pages) render(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	var buf bytes.Buffer
	if err := p.tmpl[name].ExecuteTemplate(&buf, "layout", data); err != nil {
		p.log.Error("rendering page", "page", name, "path", r.URL.Path, "err", err)
		http.Error(w, "500 internal error: rendering the page failed; see the daemon's log", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// withTag adds the tag filter to a link.
func withTag(href, tag string) string {
	if tag == "" {
		return href
	}
	path, frag, _ := strings.Cut(href, "#")
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	out := path + sep + "tag=" + url.QueryEscape(tag)
	if frag != "" {
		out += "#" + frag
	}
	return out
}

// markSnippet turns recall's **bold** matches into <mark>, escaping
// everything else.
func markSnippet(s string) template.HTML {
	parts := strings.Split(s, "**")
	var b strings.Builder
	for i, part := range parts {
		esc := template.HTMLEscapeString(part)
		if i%2 == 1 && i < len(parts)-1 {
			b.WriteString("<mark>" + esc + "</mark>")
			continue
		}
		if i%2 == 1 { // an unmatched ** at the end: keep it as text
			b.WriteString("**")
		}
		b.WriteString(esc)
	}
	return template.HTML(b.String())
}

// proseClip is about how many bytes of a summary's prose show before
// "read all".
const proseClip = 700

// clip returns the start of s, about proseClip bytes, cut at a space.
func clip(s string) string { return words.ClipWords(s, proseClip) }
