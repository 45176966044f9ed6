package assemble

import (
	"fmt"
	"strings"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/internal/util/words"
)

// topicsShown is how many tags and people a summary item names.
const topicsShown = 6

// SummaryCandidate returns the candidate of a summary: a heading with its
// id, period and counts; a body of its main tags and people, then its prose.
func SummaryCandidate(s *consolidate.Summary) Candidate {
	p := s.Period
	head := fmt.Sprintf("### [%s] %s · %s", p.ID(), p.Title(), countsLine(p.Level, s.Counts))
	var topics []string
	for _, t := range s.Tags[:min(len(s.Tags), topicsShown)] {
		topics = append(topics, "#"+t.Name)
	}
	for _, t := range s.People[:min(len(s.People), topicsShown)] {
		topics = append(topics, t.Name)
	}
	var body strings.Builder
	if len(topics) > 0 {
		body.WriteString("Topics: " + strings.Join(topics, ", ") + ".\n")
	}
	body.WriteString(strings.TrimSpace(s.Prose))
	return Candidate{ID: p.ID(), Part: PartSummaries, Level: string(p.Level), Head: head,
		Body: strings.TrimSpace(body.String()), Date: p.Range().To}
}

func countsLine(level consolidate.Level, c consolidate.Counts) string {
	var parts []string
	if level != consolidate.LevelDay {
		parts = append(parts, words.Count(c.Days, "day"))
	}
	parts = append(parts, words.Count(c.Entries, "entry"))
	if c.Decisions > 0 {
		parts = append(parts, words.Count(c.Decisions, "decision"))
	}
	return strings.Join(parts, ", ")
}

// EntryCandidate returns the candidate of an entry, given verbatim (see EntryLine).
func EntryCandidate(e dayfiles.Entry, part Part) Candidate {
	return Candidate{ID: e.ID, Part: part, Level: "entry", Head: EntryLine(e), Date: e.Day}
}

// EntryLine renders an entry as one list item: "- [ID] [kind] text", the kind
// left out for notes (unless the text starts with a bracket), continuation lines indented by two spaces. The text is
// the entry's exact text; ParseEntries gives it back.
func EntryLine(e dayfiles.Entry) string {
	var b strings.Builder
	b.WriteString("- [" + e.ID + "] ")
	switch {
	case e.Kind != "" && e.Kind != dayfiles.KindNote:
		b.WriteString("[" + string(e.Kind) + "] ")
	case strings.HasPrefix(e.Text, "["):
		b.WriteString("[note] ") // so that ParseEntries does not take the text's bracket for a kind
	}
	for i, l := range strings.Split(e.Text, "\n") {
		if i > 0 {
			b.WriteString("\n  ")
		}
		b.WriteString(l)
	}
	return b.String()
}

// EvidenceLine renders an entry as EntryLine does, with the line of its day
// file first: "- :15 [ID] [kind] text"; ParseEntries reads it too.
func EvidenceLine(e dayfiles.Entry) string {
	return fmt.Sprintf("- :%d %s", e.Line, strings.TrimPrefix(EntryLine(e), "- "))
}

// NoteLine renders a free-text note of a day file, by its id (DATE:Lnn), as
// a list item with its text indented like an entry's continuation lines.
func NoteLine(id, text string) string {
	return "- [" + id + "] " + strings.ReplaceAll(strings.TrimRight(text, "\n"), "\n", "\n  ")
}

// ParseEntries returns the text of every entry item in a block by its id:
// the inverse of EntryLine. Summary headings and notes are not entries.
// daybook itself never reads a block back: the tests of this package and
// of package app hold a context to its promise (an entry verbatim, under
// its id) with it.
func ParseEntries(markdown string) map[string]string {
	out := map[string]string{}
	lines := strings.Split(markdown, "\n")
	for i := 0; i < len(lines); i++ {
		rest, ok := strings.CutPrefix(lines[i], "- ")
		if !ok {
			continue
		}
		if r, ok := strings.CutPrefix(rest, ":"); ok { // an evidence line: "- :15 [ID] text"
			n, after, _ := strings.Cut(r, " ")
			if n == "" || strings.Trim(n, "0123456789") != "" {
				continue
			}
			rest = after
		}
		if rest, ok = strings.CutPrefix(rest, "["); !ok {
			continue
		}
		end := strings.Index(rest, "] ")
		if end < 0 {
			continue
		}
		id := rest[:end]
		if _, ok := dayfiles.ParseEntryID(id); !ok {
			continue
		}
		text := rest[end+2:]
		for _, k := range dayfiles.Kinds {
			if t, ok := strings.CutPrefix(text, "["+string(k)+"] "); ok {
				text = t
				break
			}
		}
		for i+1 < len(lines) && strings.HasPrefix(lines[i+1], "  ") {
			i++
			text += "\n" + lines[i][2:]
		}
		out[id] = text
	}
	return out
}
