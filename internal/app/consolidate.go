package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles/date"
)

// Summaries is the App's consolidation and what it wrote: the
// Consolidator, built once, and the hooks that see each summary written;
// Consolidate, Browse, and the summaries' share of status and stats.
type Summaries struct {
	*env
	summarizer func() consolidate.Summarizer // Models'

	once  sync.Once
	c     *consolidate.Consolidator
	hooks hooks[func(ctx context.Context, s *consolidate.Summary)]
}

// Consolidator returns the App's Consolidator, built on first use with the
// summarizer of Models (Ollama with the offline fallback when
// enabled, else offline). Summaries it writes are passed to the hooks given to
// OnSummary.
func (sm *Summaries) Consolidator() *consolidate.Consolidator {
	sm.once.Do(func() {
		sm.c = &consolidate.Consolidator{
			Root: sm.dir, Loc: sm.Loc(), Summarizer: sm.summarizer(), Log: sm.log,
			Now: func() time.Time { return sm.now() },
			OnWrite: func(ctx context.Context, sum *consolidate.Summary) {
				for _, fn := range sm.hooks.list() {
					fn(ctx, sum)
				}
			},
		}
	})
	return sm.c
}

// OnSummary registers fn to be called with each summary a consolidation
// writes (the index adds it to recall). Register before the first
// consolidation.
func (sm *Summaries) OnSummary(fn func(ctx context.Context, s *consolidate.Summary)) {
	sm.hooks.add(fn)
}

// Consolidate brings the summaries of a range up to date.
func (sm *Summaries) Consolidate(ctx context.Context, req daybook.ConsolidateRequest) (daybook.ConsolidateResponse, error) {
	r, err := date.ParseRangeArgs(req.From, req.To, sm.Today())
	if err != nil {
		return daybook.ConsolidateResponse{}, userErr(err)
	}
	level, err := consolidate.ParseLevel(req.Level)
	if err != nil {
		return daybook.ConsolidateResponse{}, userErr(err)
	}
	st, err := sm.Consolidator().Run(ctx, consolidate.RunOptions{Range: r, Level: level, Force: req.Force, Progress: req.Progress})
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

// fillStatus fills in the summary counts and the stale periods.
func (sm *Summaries) fillStatus(ctx context.Context, resp *daybook.StatusResponse) {
	files, err := consolidate.List(sm.dir, "", date.Range{})
	if err != nil {
		sm.log.Debug("counting summaries", "err", err)
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
	stale, err := sm.Consolidator().Stale(ctx)
	if err != nil {
		sm.log.Debug("finding stale summaries", "err", err)
		return
	}
	resp.StaleCount = len(stale)
	for _, p := range stale[:min(len(stale), maxStaleListed)] {
		resp.Stale = append(resp.Stale, p.String())
	}
}

// fillStats counts the summaries per level into resp, and the
// coverage: the share of the closed periods whose summary is current.
func (sm *Summaries) fillStats(ctx context.Context, resp *daybook.StatsResponse, closed map[string]bool) error {
	files, err := consolidate.List(sm.dir, "", date.Range{})
	if err != nil {
		return err
	}
	for _, f := range files {
		resp.Summaries[string(f.Period.Level)]++
	}
	stale, err := sm.Consolidator().Stale(ctx)
	if err != nil {
		return fmt.Errorf("finding stale summaries: %w", err)
	}
	staleIDs := map[string]bool{}
	for _, p := range stale {
		staleIDs[p.ID()] = true
	}
	total, current := map[string]int{}, map[string]int{}
	for id := range closed {
		level, _, _ := strings.Cut(id, ":")
		total[level]++
		if !staleIDs[id] {
			current[level]++
		}
	}
	for _, level := range []string{"day", "month", "year"} {
		if total[level] > 0 {
			resp.Coverage[level] = float64(current[level]) / float64(total[level])
		}
	}
	return nil
}
