package app

import (
	"context"
	"path/filepath"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// Find is the linear scan over the day files in a range, newest first.
func (a *App) Find(ctx context.Context, req daybook.FindRequest) (daybook.FindResponse, error) {
	if req.Limit < 0 {
		return daybook.FindResponse{}, userErrf("limit %d is negative", req.Limit)
	}
	m, err := dayfiles.NewMatcher(req.Pattern, req.Regex)
	if err != nil {
		return daybook.FindResponse{}, userErr(err)
	}
	r, err := date.ParseRangeArgs(req.From, req.To, a.Today())
	if err != nil {
		return daybook.FindResponse{}, userErr(err)
	}
	files, err := dayfiles.ListPaths(a.dir, r, a.log)
	if err != nil {
		return daybook.FindResponse{}, err
	}
	limit := req.Limit
	if limit > 0 {
		limit++ // one more tells whether the list was cut
	}
	scanned, err := dayfiles.ScanFiles(files, m, limit)
	found := scanned.Matches
	resp := daybook.FindResponse{Matches: make([]daybook.Match, 0, len(found)), FilesRead: scanned.Read}
	for _, c := range scanned.Conflicts {
		rel, rerr := filepath.Rel(a.dir, c.Path)
		if rerr != nil {
			rel = c.Path
		}
		resp.Skipped = append(resp.Skipped, daybook.Skipped{Path: filepath.ToSlash(rel), Line: c.Line,
			Reason: "conflict markers: resolve them (keep what belongs, remove the <<<<<<<, =======, >>>>>>> lines) and the day is searched again"})
	}
	if req.Limit > 0 && len(found) > req.Limit {
		found, resp.Truncated = found[:req.Limit], true
	}
	for _, f := range found {
		resp.Matches = append(resp.Matches, daybook.Match{Date: f.File.Date.String(), Path: dayfiles.RelPath(f.File.Date), Line: f.Line, Text: f.Text})
	}
	return resp, err
}
