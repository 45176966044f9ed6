package app

import (
	"context"
	"errors"
	"os"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// Lookup answers what is at a date or an id, read from the markdown
// itself: a day (Day), the days of a range (Days), a pattern (Find), the
// full text behind an id (Expand, which counts as a use of it).
type Lookup struct {
	*env
	use *usagePart // Expand's retrieval counts
}

// Day returns one day file and its entries.
func (lk *Lookup) Day(ctx context.Context, req daybook.DayRequest) (daybook.DayResponse, error) {
	d := lk.Today()
	if req.Date != "" {
		var err error
		if d, err = date.ParseArg(req.Date, lk.Today()); err != nil {
			return daybook.DayResponse{}, userErr(err)
		}
	}
	resp := daybook.DayResponse{Date: d.String(), Path: dayfiles.RelPath(d), Entries: []daybook.Entry{}}
	path := dayfiles.Path(lk.dir, d)
	data, err := dayfiles.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return resp, nil
	}
	if err != nil {
		return resp, err
	}
	day, err := dayfiles.Parse(path, d, data)
	if err != nil {
		return resp, err
	}
	resp.Exists, resp.Content = true, string(data)
	for _, e := range day.Entries {
		resp.Entries = append(resp.Entries, EntryOf(e))
	}
	return resp, nil
}

// EntryOf converts a parsed entry to its API form.
func EntryOf(e dayfiles.Entry) daybook.Entry {
	return daybook.Entry{
		ID: e.ID, Date: e.Day.String(), Time: e.Clock(), Kind: string(e.Kind),
		Text: e.Text, Tags: e.Tags, Path: dayfiles.RelPath(e.Day), Line: e.Line, EndLine: e.EndLine,
	}
}

// Days lists the days in a range with their entry counts, oldest first.
func (lk *Lookup) Days(ctx context.Context, req daybook.DaysRequest) (daybook.DaysResponse, error) {
	r, err := date.ParseRangeArgs(req.From, req.To, lk.Today())
	if err != nil {
		return daybook.DaysResponse{}, userErr(err)
	}
	files, err := dayfiles.List(lk.dir, r, lk.log)
	if err != nil {
		return daybook.DaysResponse{}, err
	}
	resp := daybook.DaysResponse{Days: make([]daybook.DayInfo, 0, len(files))}
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return resp, err
		}
		info := daybook.DayInfo{Date: f.Date.String(), Path: dayfiles.RelPath(f.Date)}
		day, err := dayfiles.ParseFile(f.Path, f.Date)
		if err != nil {
			info.Error = err.Error()
		} else {
			info.Entries, info.Notes = len(day.Entries), len(day.Notes)
		}
		resp.Days = append(resp.Days, info)
	}
	return resp, nil
}
