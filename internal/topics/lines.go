package topics

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"
)

// Line is a line of a summary file that mentions a topic.
type Line struct {
	Line int    // 1-based, in the file
	Text string // the line, cut to SnippetRunes around the mention
}

// SnippetRunes is the most characters of a line Line.Text keeps.
const SnippetRunes = 240

// countSections are the summary sections that only count topics; their
// lines are not mentions worth showing.
var countSections = map[string]bool{"Tags": true, "People": true, "Stats": true, "Busiest days": true}

// SummaryLines returns the lines of the summary file at path that mention
// topic (see Mentions), in file order: its prose and its decisions, not its
// front matter, headings or count sections.
func SummaryLines(path, topic string) ([]Line, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading summary: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	var out []Line
	n, fences, section := 0, 0, ""
	for sc.Scan() {
		n++
		l := sc.Text()
		if fences < 2 {
			if l == "---" && (n == 1 || fences == 1) {
				fences++
			} else if n == 1 {
				fences = 2 // no front matter
			}
			if fences < 2 || l == "---" {
				continue
			}
		}
		if strings.HasPrefix(l, "## ") {
			section = strings.TrimSpace(l[3:])
			continue
		}
		if strings.HasPrefix(l, "# ") || countSections[section] || strings.TrimSpace(l) == "" {
			continue
		}
		if Mentions(topic, l) {
			out = append(out, Line{Line: n, Text: snippet(l, topic)})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return out, nil
}

// snippet cuts l to SnippetRunes characters around the first mention of
// topic, marking the cuts with "…".
func snippet(l, topic string) string {
	l = strings.TrimSpace(strings.TrimPrefix(l, "- "))
	if utf8.RuneCountInString(l) <= SnippetRunes {
		return l
	}
	needle := strings.TrimPrefix(topic, "#")
	at := strings.Index(strings.ToLower(l), strings.ToLower(needle))
	if at < 0 {
		at = 0
	}
	start := max(0, at-SnippetRunes/3)
	for start > 0 && !utf8.RuneStart(l[start]) {
		start--
	}
	rs := []rune(l[start:])
	end := min(len(rs), SnippetRunes)
	out := string(rs[:end])
	if start > 0 {
		out = "…" + out
	}
	if end < len(rs) {
		out += "…"
	}
	return out
}
