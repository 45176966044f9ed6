package assemble

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/util/words"
)

// SummaryCandidate returns the candidate of a summary: a heading with its
// id, period and counts; a body of its main tags and people, then its prose.
func SummaryCandidate(s *consolidate.Summary) Candidate {
	p := s.Period
	head := fmt.Sprintf("### [%s] %s · %s", p.ID(), p.Title(), countsLine(p.Level, s.Counts))
	var topics []string
	for _, t := range s.Tags {
		if len(topics) == topicsShown {
			break
		}
		if dayfiles.AutoTag(t.Name) {
			// A label of the loop's captured sessions (#claude-code,
			// #session-…): the most frequent tags of a busy agent's day,
			// they would name its sessions instead of the person's topics.
			continue
		}
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

func countsLine(level date.Level, c consolidate.Counts) string {
	var parts []string
	if level != date.LevelDay {
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

// EvidenceLine renders an entry as a line of evidence, under its day's
// heading (see EvidenceGroup): "- :15 09:14 [kind] text", its line in the
// day file, its time, its kind (as EntryLine gives it) and its exact text,
// continuation lines indented by two spaces. The day and line make its id
// for "daybook expand": 2026-03-09:L15. ParseEntries reads it back.
func EvidenceLine(e dayfiles.Entry) string {
	line, _ := EvidenceLineCut(e, 0)
	return line
}

// EvidenceLineCut is EvidenceLine with the text cut to at most max tokens
// (0: whole) at a sentence or word, marked " …"; truncated says it was.
func EvidenceLineCut(e dayfiles.Entry, max int) (line string, truncated bool) {
	if max > 0 {
		// Only the text's first max×CharsPerToken runes can be kept, and
		// rendering only adds to them: render no more than one past those,
		// which is still over max when the whole is.
		e.Text = firstRunes(e.Text, max*CharsPerToken+1)
	}
	text := strings.TrimPrefix(EntryLine(e), "- ["+e.ID+"] ")
	if max > 0 {
		if cut, t, ok := CutWords(text, max); ok && t {
			text, truncated = cut, true
		}
	}
	return "- :" + strconv.Itoa(e.Line) + " " + e.Clock() + " " + text, truncated
}

// supersededMark is how an evidence line says a newer entry changed it:
// "- :3 09:10 (superseded by [ID]) text".
const supersededMark = "(superseded by ["

// MarkSuperseded marks the evidence line line as superseded by the entry
// by, after its line and time, before its kind and text.
func MarkSuperseded(line, by string) string {
	f := strings.SplitN(line, " ", 4) // "-", ":15", "09:14", text
	if len(f) < 4 {
		return line
	}
	return f[0] + " " + f[1] + " " + f[2] + " " + supersededMark + by + "]) " + f[3]
}

// firstRunes returns the first n runes of s.
func firstRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// EvidenceGroup is the heading of a day's evidence: its date and file.
func EvidenceGroup(d date.Date) string { return d.String() + " · " + dayfiles.RelPath(d) }

// NoteLine renders a free-text note of a day file, by its id (DATE:Lnn), as
// a list item with its text indented like an entry's continuation lines.
func NoteLine(id, text string) string {
	return "- [" + id + "] " + strings.ReplaceAll(strings.TrimRight(text, "\n"), "\n", "\n  ")
}

// ParseEntries returns the text of every entry item in a block by its id:
// the inverse of EntryLine, and of EvidenceLine under its day's heading (by
// the line's id, DATE:Lnn). Summary headings and notes are not entries.
// daybook itself never reads a block back: the tests of this package and
// of package app hold a context to its promise (an entry verbatim, under
// its id) with it. An evidence line cut to fit (ending " …") is not its
// entry's text, and is left out.
func ParseEntries(markdown string) map[string]string {
	out := map[string]string{}
	lines := strings.Split(markdown, "\n")
	var day date.Date // of the evidence heading above
	for i := 0; i < len(lines); i++ {
		if h, ok := strings.CutPrefix(lines[i], "#"); ok {
			day = date.Date{}
			if g, ok := strings.CutPrefix(h, "## "); ok && len(g) >= 10 {
				day, _ = date.Parse(g[:10])
			}
			continue
		}
		rest, ok := strings.CutPrefix(lines[i], "- ")
		if !ok {
			continue
		}
		var id, text string
		evidence := false
		if r, ok := strings.CutPrefix(rest, ":"); ok { // evidence: "- :15 09:14 text"
			f := strings.SplitN(r, " ", 3)
			n, err := strconv.Atoi(f[0])
			if day.IsZero() || err != nil || len(f) < 3 || len(f[1]) != 5 || f[1][2] != ':' {
				continue
			}
			id, text, evidence = dayfiles.LineID(day, n), f[2], true
			if rest, ok := strings.CutPrefix(text, supersededMark); ok {
				if end := strings.Index(rest, "]) "); end >= 0 {
					text = rest[end+3:]
				}
			}
		} else {
			r, ok := strings.CutPrefix(rest, "[")
			end := strings.Index(r, "] ")
			if !ok || end < 0 {
				continue
			}
			id, text = r[:end], r[end+2:]
			if _, ok := dayfiles.ParseEntryID(id); !ok {
				continue
			}
			if rest, ok := strings.CutPrefix(text, supersededMark); ok {
				if end := strings.Index(rest, "]) "); end >= 0 {
					text = rest[end+3:]
				}
			}
		}
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
		if evidence && strings.HasSuffix(text, ellipsis) {
			continue // cut to fit
		}
		out[id] = text
	}
	return out
}
