package daemon

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles/date"
)

// backfill consolidates every closed period of the whole history that has
// entries and no current summary, day → month → year: what cron missed while
// the daemon was down or the machine slept. It is one Run over the whole
// history: periods whose inputs did not change cost a stat, so with nothing
// stale it writes nothing.
func (d *Daemon) backfill(ctx context.Context) error {
	d.log.Debug("backfill: looking for stale summaries")
	p := newProgress(d.opts.Bar, d.log, "backfill")
	st, err := d.cons.Run(ctx, consolidate.RunOptions{Progress: p.update})
	p.finish()
	if err == nil && st.Written() == 0 && len(st.Removed) == 0 {
		d.log.Info("summaries are current", "unchanged", st.Unchanged, "took", st.Duration.Round(time.Millisecond).String())
	}
	d.logStats(JobBackfill, st)
	return d.retryIfBusy(err, task{job: JobBackfill, run: d.backfill})
}

// jobTask returns the task of a scheduled job: daily is yesterday's day,
// monthly last month's days and month, yearly last year's days, months and
// year, each day as of the daemon's clock in the configured zone.
func (d *Daemon) jobTask(job string) task {
	t := task{job: job}
	t.run = func(ctx context.Context) error {
		today := date.Of(d.app.Now().In(d.app.Loc()))
		var r date.Range
		var levels []date.Level
		switch job {
		case JobDaily:
			y := today.AddDays(-1)
			r, levels = date.Range{From: y, To: y}, []date.Level{date.LevelDay}
		case JobMonthly:
			m := today.AddDays(-today.Day).MonthOf()
			r, levels = m.Range(), []date.Level{date.LevelDay, date.LevelMonth}
		case JobYearly:
			r, levels = date.YearRange(today.Year-1), []date.Level{date.LevelDay, date.LevelMonth, date.LevelYear}
		default:
			return errors.New("unknown job " + job)
		}
		d.log.Info("running job", "job", job, "range", r.String())
		for _, l := range levels {
			st, err := d.cons.Run(ctx, consolidate.RunOptions{Range: r, Level: l})
			d.logStats(job, st)
			if err != nil {
				return d.retryIfBusy(err, t)
			}
		}
		return nil
	}
	return t
}

// reconsolidate redoes edited days and then their months and years; only
// closed periods are done, and hand-edited summaries are kept (no force).
// A few days are run one by one; many (a folder restored, days/ replaced)
// in one run over their span, where unchanged days cost only a stat.
func (d *Daemon) reconsolidate(ctx context.Context, days []date.Date) error {
	d.log.Info("reconsolidating edited days", "days", len(days), "first", days[0].String(), "last", days[len(days)-1].String())
	ranges := []date.Range{{From: days[0], To: days[len(days)-1]}}
	if len(days) <= maxSingleRuns {
		ranges = ranges[:0]
		for _, day := range days {
			ranges = append(ranges, date.Range{From: day, To: day})
		}
	}
	var errs []error
	for _, r := range ranges {
		st, err := d.cons.Run(ctx, consolidate.RunOptions{Range: r})
		d.logStats(JobOnEdit, st)
		var busy *consolidate.BusyError
		if errors.As(err, &busy) {
			d.log.Info("consolidation busy; retrying later", "job", JobOnEdit, "err", err, "retry", d.opts.Retry.String())
			retry := slices.DeleteFunc(slices.Clone(days), func(x date.Date) bool { return !r.Contains(x) })
			d.retries.after(d.opts.Retry, func() { d.work.changed(retry) })
			continue
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// maxSingleRuns is how many edited days are run one by one.
const maxSingleRuns = 8

// retryIfBusy queues t again after the retry delay when another process
// holds the consolidation lock, and reports err otherwise.
func (d *Daemon) retryIfBusy(err error, t task) error {
	var busy *consolidate.BusyError
	if !errors.As(err, &busy) {
		return err
	}
	d.log.Info("consolidation busy; retrying later", "job", t.job, "err", err, "retry", d.opts.Retry.String())
	d.retries.after(d.opts.Retry, func() { d.work.enqueue(t) })
	return err
}

func (d *Daemon) logStats(job string, st consolidate.Stats) {
	for _, k := range st.Kept {
		d.log.Info("kept a hand-edited summary", "job", job, "path", k)
	}
	for _, s := range st.Skipped {
		d.log.Warn("skipped a day file", "job", job, "path", s.Path, "reason", s.Reason)
	}
	if st.Written() > 0 || len(st.Removed) > 0 {
		d.log.Info("consolidated", "job", job, "days", st.Days, "months", st.Months, "years", st.Years,
			"unchanged", st.Unchanged, "removed", len(st.Removed), "took", st.Duration.Round(time.Millisecond).String())
	}
}
