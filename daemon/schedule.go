package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/robfig/cron/v3"
)

// scheduler fires the daily, monthly and yearly jobs with robfig/cron in the
// configured zone. cron never runs what it missed, so the daemon backfills at
// start and whenever the clock jumps; a jump also restarts cron, whose timers
// count monotonic time and would fire late after the machine slept.
type scheduler struct {
	log *slog.Logger

	mu  sync.Mutex
	c   *cron.Cron
	ids map[string]cron.EntryID
	// stopped is set by stop: a restart after it (a clock jump seen while
	// the daemon closes) leaves cron stopped.
	stopped bool
}

// newScheduler adds a job for each non-empty spec; fire enqueues the job.
func newScheduler(sc Schedule, loc *time.Location, log *slog.Logger, fire func(job string)) (*scheduler, error) {
	s := &scheduler{log: log, ids: map[string]cron.EntryID{}}
	s.c = cron.New(cron.WithLocation(loc), cron.WithLogger(cronLogger{log}))
	for job, spec := range specs(sc) {
		if spec == "" {
			log.Info("job disabled: empty spec", "job", job)
			continue
		}
		id, err := s.c.AddFunc(spec, func() { fire(job) })
		if err != nil {
			return nil, fmt.Errorf("scheduling %s job %q: %w", job, spec, err)
		}
		s.ids[job] = id
	}
	return s, nil
}

// specs maps each scheduled job to its cron spec.
func specs(sc Schedule) map[string]string {
	return map[string]string{JobDaily: sc.Daily, JobMonthly: sc.Monthly, JobYearly: sc.Yearly}
}

func (s *scheduler) start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.c.Start()
}

// restart makes cron compute its next runs again from the wall clock.
func (s *scheduler) restart() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return // the daemon is closing: cron stays stopped
	}
	s.c.Stop()
	s.c.Start()
}

// stop stops cron; its jobs only enqueue, so there is nothing to wait for.
func (s *scheduler) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = true
	s.c.Stop()
}

// next returns the next run of job, zero when it is not scheduled.
func (s *scheduler) next(job string) time.Time {
	id, ok := s.ids[job]
	if !ok {
		return time.Time{}
	}
	return s.c.Entry(id).Next
}

// jumpWatch calls onJump when the wall clock moved differently from the
// monotonic clock by more than tolerance between two ticks: the machine
// slept, or someone set the clock. now gives the wall clock.
func jumpWatch(ctx context.Context, every, tolerance time.Duration, now func() time.Time, onJump func(skew time.Duration)) {
	wall, mono := now().Round(0), time.Now()
	tick(ctx, every, func() {
		w, m := now().Round(0), time.Now()
		skew := w.Sub(wall) - m.Sub(mono)
		wall, mono = w, m
		if skew > tolerance || skew < -tolerance {
			onJump(skew)
		}
	})
}

// cronLogger sends cron's own lines to slog at debug level, its errors as errors.
type cronLogger struct{ log *slog.Logger }

func (l cronLogger) Info(msg string, kv ...any) { l.log.Debug("cron: "+msg, kv...) }
func (l cronLogger) Error(err error, msg string, kv ...any) {
	l.log.Error("cron: "+msg, append(kv, "err", err)...)
}
