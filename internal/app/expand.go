package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// Expand returns the full text behind an id that recall, browse or expand
// itself returned: an entry id (2026-11-22T09:14-3fa2b1c4d5e6), a line
// (2026-11-22:L12), a day (day:2026-11-22: the day file and its daily
// summary), a month (month:2026-11) or a year (year:2026). Related lists the
// ids one level down, so that every entry is reachable from a year.
func (lk *Lookup) Expand(ctx context.Context, req daybook.ExpandRequest) (daybook.ExpandResponse, error) {
	resp, err := lk.expand(ctx, req)
	if err == nil {
		lk.use.record([]string{resp.ID})
	}
	return resp, err
}

func (lk *Lookup) expand(ctx context.Context, req daybook.ExpandRequest) (daybook.ExpandResponse, error) {
	id := strings.TrimSpace(req.ID)
	if id == "" {
		return daybook.ExpandResponse{}, userErrf("id is empty: want an entry id, DATE:Lnn, day:YYYY-MM-DD, month:YYYY-MM or year:YYYY")
	}
	if level, period, ok := strings.Cut(id, ":"); ok && (level == "day" || level == "month" || level == "year") {
		p, err := consolidate.ParsePeriod(date.Level(level), period)
		if err != nil {
			return daybook.ExpandResponse{}, userErrf("id %q: %w", id, err)
		}
		if p.Level == date.LevelDay {
			return lk.expandDay(ctx, id, p.Date())
		}
		return lk.expandPeriod(ctx, id, p)
	}
	if d, n, ok := dayfiles.ParseLineID(id); ok {
		return lk.expandLine(id, d, n)
	}
	if d, ok := dayfiles.ParseEntryID(id); ok {
		return lk.expandEntry(id, d)
	}
	return daybook.ExpandResponse{}, userErrf("id %q is not an entry id (2026-11-22T09:14-3fa2b1c4d5e6), DATE:Lnn, day:YYYY-MM-DD, month:YYYY-MM or year:YYYY", id)
}

// readDay reads and parses d's day file. A missing file is a user error
// naming the id that led to it.
func (lk *Lookup) readDay(id string, d date.Date) ([]byte, *dayfiles.Day, error) {
	path := dayfiles.Path(lk.dir, d)
	data, err := dayfiles.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, notFoundf("id %q: no day file %s", id, dayfiles.RelPath(d))
	}
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s: %w", dayfiles.RelPath(d), err)
	}
	day, err := dayfiles.Parse(dayfiles.RelPath(d), d, data)
	if err != nil {
		return nil, nil, err
	}
	return data, day, nil
}

func (lk *Lookup) expandEntry(id string, d date.Date) (daybook.ExpandResponse, error) {
	data, day, err := lk.readDay(id, d)
	if err != nil {
		return daybook.ExpandResponse{}, err
	}
	for _, e := range day.Entries {
		if e.ID == id {
			return entryResponse(data, e), nil
		}
	}
	return daybook.ExpandResponse{}, notFoundf("no entry %q in %s (an entry's id changes when its text or time is edited; day:%s lists the ids)",
		id, dayfiles.RelPath(d), d)
}

func entryResponse(data []byte, e dayfiles.Entry) daybook.ExpandResponse {
	ae := EntryOf(e)
	return daybook.ExpandResponse{
		ID: e.ID, Level: "entry", Period: e.Day.String(), Path: ae.Path, Line: e.Line, EndLine: e.EndLine,
		Text: dayfiles.SourceLines(data, e.Line, e.EndLine), Entry: &ae,
	}
}

// expandLine returns the entry that holds line n, or the note that does, or
// the line itself.
func (lk *Lookup) expandLine(id string, d date.Date, n int) (daybook.ExpandResponse, error) {
	data, day, err := lk.readDay(id, d)
	if err != nil {
		return daybook.ExpandResponse{}, err
	}
	if lines := dayfiles.CountLines(data); n > lines {
		return daybook.ExpandResponse{}, userErrf("id %q: %s has %d lines", id, dayfiles.RelPath(d), lines)
	}
	for _, e := range day.Entries {
		if n >= e.Line && n <= e.EndLine {
			return entryResponse(data, e), nil
		}
	}
	first, last := n, n
	for _, note := range day.Notes {
		if n >= note.Line && n <= note.EndLine {
			first, last = note.Line, note.EndLine
			break
		}
	}
	return daybook.ExpandResponse{
		ID: id, Level: string(date.LevelLine), Period: d.String(), Path: dayfiles.RelPath(d), Line: first, EndLine: last,
		Text: dayfiles.SourceLines(data, first, last),
	}, nil
}

// expandDay returns a day file with its entries' ids and, when there is one,
// its daily summary.
func (lk *Lookup) expandDay(ctx context.Context, id string, d date.Date) (daybook.ExpandResponse, error) {
	p := consolidate.DayPeriod(d)
	sum, sumErr := readSummaryText(lk.dir, p)
	data, day, err := lk.readDay(id, d)
	if err != nil && !(IsUserError(err) && sumErr == nil) {
		return daybook.ExpandResponse{}, err
	}
	resp := daybook.ExpandResponse{ID: p.ID(), Level: "day", Period: d.String(), Path: dayfiles.RelPath(d), Summary: sum,
		Open: !p.Closed(lk.Today())}
	if sumErr == nil {
		resp.SummaryPath = p.Rel()
	} else if !errors.Is(sumErr, os.ErrNotExist) {
		return resp, sumErr
	}
	if day == nil { // the day file is gone; its summary is kept
		return resp, nil
	}
	resp.Line, resp.EndLine, resp.Text = 1, dayfiles.CountLines(data), string(data)
	for _, e := range day.Entries {
		resp.Related = append(resp.Related, e.ID)
	}
	for _, n := range day.Notes {
		resp.Related = append(resp.Related, n.ID(d))
	}
	return resp, ctx.Err()
}

// expandPeriod returns a month's or a year's summary and the ids of its
// days or months that have day files, whether or not they are summarized.
func (lk *Lookup) expandPeriod(ctx context.Context, id string, p consolidate.Period) (daybook.ExpandResponse, error) {
	resp := daybook.ExpandResponse{ID: p.ID(), Level: string(p.Level), Period: p.String(), Path: p.Rel(),
		Open: !p.Closed(lk.Today())}
	text, err := readSummaryText(lk.dir, p)
	switch {
	case err == nil:
		resp.Text, resp.Line, resp.EndLine = text, 1, dayfiles.CountLines([]byte(text))
	case errors.Is(err, os.ErrNotExist):
		resp.Path = ""
	default:
		return resp, err
	}
	files, err := dayfiles.List(lk.dir, p.Range(), lk.log)
	if err != nil {
		return resp, err
	}
	seen := map[string]bool{}
	for _, f := range files {
		child := consolidate.DayPeriod(f.Date)
		if p.Level == date.LevelYear {
			child = consolidate.MonthPeriod(f.Date.MonthOf())
		}
		if id := child.ID(); !seen[id] {
			seen[id] = true
			resp.Related = append(resp.Related, id)
		}
	}
	if resp.Path == "" && len(resp.Related) == 0 {
		return resp, notFoundf("id %q: no summary %s and no day files in %s", id, p.Rel(), p)
	}
	return resp, ctx.Err()
}

// readSummaryText reads a summary file whole; a missing one is
// os.ErrNotExist.
func readSummaryText(root string, p consolidate.Period) (string, error) {
	path := p.Path(root)
	fi, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", err
		}
		return "", fmt.Errorf("reading %s: %w", p.Rel(), err)
	}
	if fi.Size() > consolidate.MaxSummarySize {
		return "", fmt.Errorf("%s: %d bytes is over the %d MiB limit of a summary", p.Rel(), fi.Size(), consolidate.MaxSummarySize>>20)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", p.Rel(), err)
	}
	return string(data), nil
}
