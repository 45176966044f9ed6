package app

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles/date"
)

// consolidatePart is the App's consolidation: the Consolidator, built once,
// and the hooks that see each summary written.
type consolidatePart struct {
	once  sync.Once
	c     *consolidate.Consolidator
	hooks hooks[func(ctx context.Context, s *consolidate.Summary)]
}

// Consolidator returns the App's Consolidator, built on first use with the
// summarizer of Models (Ollama with the offline fallback when
// enabled, else offline). Summaries it writes are passed to the hooks given to
// OnSummary.
func (a *App) Consolidator() *consolidate.Consolidator {
	a.cons.once.Do(func() {
		a.cons.c = &consolidate.Consolidator{
			Root: a.dir, Loc: a.Loc(), Summarizer: a.Models.summarizer(), Log: a.log,
			Now: func() time.Time { return a.now() },
			OnWrite: func(ctx context.Context, s *consolidate.Summary) {
				for _, fn := range a.cons.hooks.list() {
					fn(ctx, s)
				}
			},
		}
	})
	return a.cons.c
}

// OnSummary registers fn to be called with each summary a consolidation
// writes (the index adds it to recall). Register before the first
// consolidation.
func (a *App) OnSummary(fn func(ctx context.Context, s *consolidate.Summary)) {
	a.cons.hooks.add(fn)
}

// Consolidate brings the summaries of a range up to date.
func (a *App) Consolidate(ctx context.Context, req daybook.ConsolidateRequest) (daybook.ConsolidateResponse, error) {
	r, err := date.ParseRangeArgs(req.From, req.To, a.Today())
	if err != nil {
		return daybook.ConsolidateResponse{}, userErr(err)
	}
	level, err := consolidate.ParseLevel(req.Level)
	if err != nil {
		return daybook.ConsolidateResponse{}, userErr(err)
	}
	st, err := a.Consolidator().Run(ctx, consolidate.RunOptions{Range: r, Level: level, Force: req.Force, Progress: req.Progress})
	var busy *consolidate.BusyError
	if errors.As(err, &busy) {
		// Not a mistake in the request (exit 2): the same work is under way.
		return daybook.ConsolidateResponse{}, &UserError{Err: err, Code: daybook.CodeBusy}
	}
	resp := daybook.ConsolidateResponse{
		Written:   daybook.WrittenCounts{Days: st.Days, Months: st.Months, Years: st.Years},
		Unchanged: st.Unchanged, Kept: st.Kept, Removed: st.Removed, DurationMS: st.Duration.Milliseconds(),
	}
	for _, s := range st.Skipped {
		resp.Skipped = append(resp.Skipped, daybook.SkippedFile{Path: s.Path, Reason: s.Reason})
	}
	return resp, err
}

// maxStaleListed is how many stale periods a status answer names.
const maxStaleListed = 20

// consolidateStatus fills in the summary counts and the stale periods.
func (a *App) consolidateStatus(ctx context.Context, resp *daybook.StatusResponse) {
	files, err := consolidate.List(a.dir, "", date.Range{})
	if err != nil {
		a.log.Debug("counting summaries", "err", err)
		return
	}
	for _, f := range files {
		switch f.Period.Level {
		case date.LevelDay:
			resp.Summaries.Day++
		case date.LevelMonth:
			resp.Summaries.Month++
		case date.LevelYear:
			resp.Summaries.Year++
		}
	}
	stale, err := a.Consolidator().Stale(ctx)
	if err != nil {
		a.log.Debug("finding stale summaries", "err", err)
		return
	}
	resp.StaleCount = len(stale)
	for _, p := range stale[:min(len(stale), maxStaleListed)] {
		resp.Stale = append(resp.Stale, p.String())
	}
}
