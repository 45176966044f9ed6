package web

import (
	"context"
	"path/filepath"
	"strconv"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// summaryView is a summary as a page shows it.
type summaryView struct {
	daybook.SummaryInfo
	Decisions []decisionView
	Omitted   int // a year's decisions beyond those listed
	Tags      []consolidate.Count
	ReadErr   string // the decisions could not be read
}

// decisionView is a decision with a link to the entry on its day's page.
type decisionView struct {
	Date string
	Time string
	Text string
	Href string
	Ref  string
}

// summaries returns the summaries of level in r, by period (2026,
// 2026-03, 2026-03-14), with whether each is stale or hand-edited.
func (p *pages) summaries(ctx context.Context, level date.Level, r date.Range, limit int) (map[string]daybook.SummaryInfo, error) {
	resp, err := p.b.Browse(ctx, daybook.BrowseRequest{Level: string(level), From: r.From.String(), To: r.To.String(), Limit: limit})
	if err != nil {
		return nil, err
	}
	out := make(map[string]daybook.SummaryInfo, len(resp.Summaries))
	for _, s := range resp.Summaries {
		out[s.Period] = s
	}
	return out, nil
}

// summary returns the summary of one period with its decisions and tags,
// or nil when it has none.
func (p *pages) summary(ctx context.Context, per consolidate.Period) (*summaryView, error) {
	m, err := p.summaries(ctx, per.Level, per.Range(), 1)
	if err != nil {
		return nil, err
	}
	info, ok := m[per.String()]
	if !ok {
		return nil, nil
	}
	v := &summaryView{SummaryInfo: info}
	if info.Error != "" {
		return v, nil
	}
	s, err := consolidate.ReadSummary(filepath.Join(p.opts.Dir, filepath.FromSlash(info.Path)))
	if err != nil {
		v.ReadErr = err.Error()
		return v, nil
	}
	v.Omitted, v.Tags = s.DecisionsOmitted, s.Tags
	for _, d := range s.Decisions {
		v.Decisions = append(v.Decisions, decisionOf(d))
	}
	return v, nil
}

// decisionOf links a summary's decision to the line on its day's page.
func decisionOf(d consolidate.Decision) decisionView {
	v := decisionView{Time: d.Time, Text: d.Text, Ref: d.Ref}
	if day, ok := dayfiles.DateOfRel(d.Path); ok {
		v.Date = day.String()
		v.Href = "/day/" + day.String() + "#L" + strconv.Itoa(d.Line)
	}
	return v
}
