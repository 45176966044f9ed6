package mcp

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/assemble"
)

// DefaultExpandBudget is the tokens of text expand returns when the call
// gives no budget: a month's summary with all its decisions runs to 30,000
// tokens, more than an agent wants in one answer.
const DefaultExpandBudget = 4000

// ExpandInput is the expand tool's arguments.
type ExpandInput struct {
	ID           string `json:"id" jsonschema:"an id from recall, browse or expand: an entry id, DATE:Lnn, day:YYYY-MM-DD, month:YYYY-MM or year:YYYY"`
	BudgetTokens int    `json:"budget_tokens,omitempty" jsonschema:"the most tokens of text to return, 1 to 32000; 0 or none: 4000. A longer text comes in pages"`
	FromLine     int    `json:"from_line,omitempty" jsonschema:"the first line of the text to return: next_from_line of the page before; 0 or none: 1"`
}

// ExpandOutput is what expand returns besides its text, which is the
// result's text content (sent once, not again in here): the lines
// from_line..to_line of total_lines, with summaries' machine front matter
// left out.
type ExpandOutput struct {
	ID          string     `json:"id"`
	Level       string     `json:"level" jsonschema:"entry, line, day, month or year"`
	Period      string     `json:"period"`
	Path        string     `json:"path,omitempty" jsonschema:"the file the text is from, relative to the data dir"`
	SummaryPath string     `json:"summary_path,omitempty" jsonschema:"a day's summary, shown after its day file"`
	Entry       *EntryInfo `json:"entry,omitempty"`
	Related     []string   `json:"related,omitempty" jsonschema:"the ids one level down: a year's months, a month's days, a day's entries"`
	Open        bool       `json:"open,omitempty" jsonschema:"the period is not over yet, so it has no summary yet"`
	Note        string     `json:"note,omitempty"`
	FromLine    int        `json:"from_line"`
	ToLine      int        `json:"to_line"`
	TotalLines  int        `json:"total_lines"`
	// NextFromLine is the from_line of the next page; 0 on the last one.
	NextFromLine int `json:"next_from_line,omitempty"`

	text string
}

// EntryInfo is an entry without its text, which is the content.
type EntryInfo struct {
	ID      string   `json:"id"`
	Date    string   `json:"date"`
	Time    string   `json:"time"`
	Kind    string   `json:"kind"`
	Tags    []string `json:"tags,omitempty"`
	Line    int      `json:"line"`
	EndLine int      `json:"end_line"`
}

func (o ExpandOutput) contentText() string { return o.text }

func (t readTools) expand(ctx context.Context, in ExpandInput) (ExpandOutput, error) {
	if err := firstError(checkText("id", in.ID, 200), checkRangeInt("budget_tokens", in.BudgetTokens, 1, maxExpandBudget),
		checkRangeInt("from_line", in.FromLine, 1, maxFromLine)); err != nil {
		return ExpandOutput{}, err
	}
	resp, err := t.r.Expand(ctx, daybook.ExpandRequest{ID: in.ID})
	if err != nil {
		return ExpandOutput{}, idError(in.ID, err)
	}
	budget := in.BudgetTokens
	if budget == 0 {
		budget = DefaultExpandBudget
	}
	return expandPage(resp, budget, max(in.FromLine, 1))
}

// idError puts the backend's refusal of an id (a usage or not-found error,
// on the files or over the socket) in the one shape of argument errors:
// `id "x" is not an entry id` becomes `id: "x" is not an entry id`. Other
// errors (a file daybook cannot read) are left as they are.
func idError(id string, err error) error {
	if !daybook.CodeOf(err).UserFault() {
		return err
	}
	if rest, ok := strings.CutPrefix(err.Error(), "id "+strconv.Quote(id)); ok {
		return &ArgError{Arg: "id", Err: errors.New(strconv.Quote(id) + rest)}
	}
	return &ArgError{Arg: "id", Err: err}
}

// expandPage lays resp out as text, without summaries' front matter, and
// returns the lines from first on that fit in budget tokens (at least one).
func expandPage(resp daybook.ExpandResponse, budget, first int) (ExpandOutput, error) {
	out := ExpandOutput{ID: resp.ID, Level: resp.Level, Period: resp.Period, Path: resp.Path, Related: resp.Related,
		Open: resp.Open}
	if e := resp.Entry; e != nil {
		out.Entry = &EntryInfo{ID: e.ID, Date: e.Date, Time: e.Time, Kind: e.Kind, Tags: e.Tags, Line: e.Line, EndLine: e.EndLine}
	}
	body := resp.Text
	if resp.Level == "month" || resp.Level == "year" {
		body = withoutFrontMatter(body)
	}
	if resp.Summary != "" {
		out.SummaryPath = resp.SummaryPath
		body = strings.TrimRight(body, "\n") + "\n\n## Daily summary (" + resp.SummaryPath + ")\n\n" + withoutFrontMatter(resp.Summary)
	}
	switch {
	case resp.Open && resp.Level != "day":
		out.Note = fmt.Sprintf("%s is still open: its summary is written once it is over; expand the ids in related for what it holds so far", resp.ID)
	case resp.Open && resp.Summary == "":
		out.Note = fmt.Sprintf("%s is still open: its daily summary is written once it is over", resp.ID)
	case body == "" && len(resp.Related) > 0:
		out.Note = fmt.Sprintf("%s has no summary yet (run daybook consolidate); expand the ids in related", resp.ID)
	}
	lines := strings.Split(strings.TrimRight(body, "\n"), "\n")
	if body == "" {
		lines = nil
	}
	out.TotalLines = len(lines)
	if first > len(lines) && len(lines) > 0 {
		return ExpandOutput{}, argErrorf("from_line", "%d is past the end: %s has %d lines", first, resp.ID, len(lines))
	}
	// The lines get the budget less what the page says around them (its
	// header, note, "more" line and related ids), but at least half of it.
	probe := out
	probe.TotalLines, probe.FromLine, probe.ToLine, probe.NextFromLine = len(lines), first, len(lines), len(lines)
	room := max(budget-assemble.Tokens(pageText(probe, "")), budget/2, 1)
	var b strings.Builder
	used, last := 0, first-1
	for i := first - 1; i < len(lines); i++ {
		line := lines[i]
		n := assemble.Tokens(line) + 1
		if used+n > room {
			if i > first-1 {
				break
			}
			// One line over the whole budget: cut, saying so.
			line = cutLine(line, room, budget)
			n = assemble.Tokens(line) + 1
		}
		used += n
		last = i + 1
		b.WriteString(line)
		b.WriteByte('\n')
	}
	if len(lines) > 0 {
		out.FromLine, out.ToLine = first, last
	}
	if last < len(lines) {
		out.NextFromLine = last + 1
	}
	out.text = pageText(out, b.String())
	return out, nil
}

// cutLine cuts a line to about room tokens, at a word where it can, and
// says that it did.
func cutLine(line string, room, budget int) string {
	marker := fmt.Sprintf(" [line cut to fit budget_tokens %d; a larger budget_tokens shows it whole]", budget)
	if assemble.Tokens(line) <= room+assemble.Tokens(marker) {
		return line // a cut with its marker would be no shorter
	}
	keep := max(room-assemble.Tokens(marker)-1, 1)
	cut, _, ok := assemble.Cut(line, keep)
	if !ok {
		r := []rune(line)
		cut = string(r[:min(len(r), keep*assemble.CharsPerToken)]) + "…"
	}
	return cut + marker
}

// pageText is the content an agent reads: a line saying what it is, the
// text, and what to call next.
func pageText(o ExpandOutput, text string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s", o.ID)
	if o.Path != "" {
		fmt.Fprintf(&b, " · %s", o.Path)
	}
	if o.TotalLines > 0 {
		fmt.Fprintf(&b, " · lines %d-%d of %d", o.FromLine, o.ToLine, o.TotalLines)
	}
	b.WriteString("\n")
	if o.Note != "" {
		b.WriteString(o.Note + "\n")
	}
	if text != "" {
		b.WriteString("\n" + text)
	}
	if o.NextFromLine > 0 {
		fmt.Fprintf(&b, "\n[more: call expand with id %q and from_line %d]\n", o.ID, o.NextFromLine)
	}
	if len(o.Related) > 0 {
		fmt.Fprintf(&b, "\nrelated: %s\n", strings.Join(o.Related, " "))
	}
	return b.String()
}

// withoutFrontMatter drops the YAML between the leading "---" lines of a
// summary: digests and counts for daybook, not for a reader.
func withoutFrontMatter(s string) string {
	if !strings.HasPrefix(s, "---\n") {
		return s
	}
	end := strings.Index(s[4:], "\n---\n")
	if end < 0 {
		return s
	}
	return strings.TrimLeft(s[4+end+5:], "\n")
}
