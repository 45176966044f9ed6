package app

import (
	"context"
	"slices"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles/date"
)

// DefaultBrowseLimit is how many summaries Browse lists when the request
// gives no limit.
const DefaultBrowseLimit = 50

// Browse lists the summaries of one level whose period overlaps a range,
// newest first, with their prose and whether each is stale (its inputs
// changed since it was written) or hand-edited (a person changed it, and
// consolidation keeps it).
func (sm *Summaries) Browse(ctx context.Context, req daybook.BrowseRequest) (daybook.BrowseResponse, error) {
	if req.Level == "" {
		return daybook.BrowseResponse{}, userErrf("level is empty: want day, month or year")
	}
	level, err := consolidate.ParseLevel(req.Level)
	if err != nil {
		return daybook.BrowseResponse{}, userErr(err)
	}
	if req.Limit < 0 {
		return daybook.BrowseResponse{}, userErrf("limit %d is negative", req.Limit)
	}
	limit := req.Limit
	if limit == 0 {
		limit = DefaultBrowseLimit
	}
	r, err := date.ParseRangeArgs(req.From, req.To, sm.Today())
	if err != nil {
		return daybook.BrowseResponse{}, userErr(err)
	}
	files, err := consolidate.List(sm.dir, level, r)
	if err != nil {
		return daybook.BrowseResponse{}, err
	}
	slices.Reverse(files)
	if len(files) > limit {
		files = files[:limit]
	}
	stale := map[string]bool{}
	if len(files) > 0 {
		periods, err := sm.Consolidator().Stale(ctx)
		if err != nil {
			return daybook.BrowseResponse{}, err
		}
		for _, p := range periods {
			stale[p.ID()] = true
		}
	}
	resp := daybook.BrowseResponse{Summaries: make([]daybook.SummaryInfo, 0, len(files))}
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return resp, err
		}
		info := daybook.SummaryInfo{ID: f.Period.ID(), Level: string(f.Period.Level), Period: f.Period.String(),
			Path: f.Rel, Stale: stale[f.Period.ID()]}
		s, err := consolidate.ReadSummary(f.Path)
		if err != nil {
			info.Error = err.Error()
			resp.Summaries = append(resp.Summaries, info)
			continue
		}
		info.Prose, info.Summarizer = s.Prose, s.Summarizer
		info.HandEdited = s.Edited()
		resp.Summaries = append(resp.Summaries, info)
	}
	return resp, nil
}
