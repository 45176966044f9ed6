package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/util/logkey"
)

// App is what a daemon uses of the memory it keeps current: the data dir
// and its clock, the index's catch-ups and the status answer.
// *app.App (internal/app) is one.
type App interface {
	Dir() string
	Logger() *slog.Logger
	Loc() *time.Location
	Now() time.Time
	// OnStatus registers fn to fill in its part of every status answer.
	OnStatus(fn func(ctx context.Context, resp *daybook.StatusResponse))
	// Index opens the index and catches it up with the files.
	Index(ctx context.Context) (*index.Index, error)
	// CatchUp brings the open index up to date with the files.
	CatchUp(ctx context.Context) error
	// CatchUpEdits runs the catch-up of edits made while no daemon ran.
	CatchUpEdits(ctx context.Context)
	// CompactIndex merges the index's segments when there are more than over.
	CompactIndex(ctx context.Context, over int) (int, error)
	// DaysChanged refreshes the index entries of the edited days.
	DaysChanged(ctx context.Context, days []date.Date)
	// DropIndexPages lets go of the index's mapped pages; it returns their bytes.
	DropIndexPages() int64
}

// Schedule says when the daemon consolidates (config consolidate.*).
// The zero Schedule runs no job and leaves edits to the next backfill.
type Schedule struct {
	// Daily, Monthly and Yearly are the jobs' cron specs in the App's
	// zone; an empty spec turns its job off.
	Daily, Monthly, Yearly string
	// OnEdit re-consolidates an edited day's summaries Debounce after the
	// last edit.
	OnEdit   bool
	Debounce time.Duration
}

// Consolidator is what the daemon needs from consolidation;
// *consolidate.Consolidator is one.
type Consolidator interface {
	Run(ctx context.Context, opts consolidate.RunOptions) (consolidate.Stats, error)
	Stale(ctx context.Context) ([]consolidate.Period, error)
}

// Options configures a Daemon. Zero values take the defaults.
type Options struct {
	// Handler, if set, is served on SocketPath.
	Handler    http.Handler
	SocketPath string
	// NoWatch turns the day-file watcher off (tests that drive time).
	NoWatch bool
	// NoIndex leaves the index closed until an operation needs it, instead
	// of opening and catching it up after the first backfill.
	NoIndex bool
	// Schedule is when to consolidate.
	Schedule Schedule
	// Watch tunes the watcher; its Log is the daemon's.
	Watch dayfiles.WatchOptions
	// JumpEvery is how often the wall clock is compared with the monotonic
	// clock to notice sleep or a clock change; default 1m, negative disables.
	JumpEvery time.Duration
	// JumpTolerance is the skew that counts as a jump; default 1m.
	JumpTolerance time.Duration
	// Retry is how long to wait when another process holds the
	// consolidation lock; default 1m.
	Retry time.Duration
	// CatchUp is how often the open index is brought up to date with the
	// files in the background (edits no watcher or hook reported, such as
	// a summary edited by hand); default 1m. Negative turns this off: an
	// App that does not catch up in the background (internal/app: Options.BackgroundCatchUp)
	// then catches up on a request when the last catch-up was 5 s ago.
	CatchUp time.Duration
	// Bar, if set, is a terminal to draw the backfill's progress bar on;
	// otherwise progress goes to the log.
	Bar io.Writer
	// Servers are served beside the socket (the timeline page) and closed
	// with it; each Serve returns http.ErrServerClosed or nil after Close.
	Servers []Server
	// Background runs each function until Close cancels its context (the
	// Ollama upgrade pass).
	Background []func(ctx context.Context) error
}

// Server is a part the daemon serves and closes, as the socket server.
type Server interface {
	Serve() error
	Close(ctx context.Context) error
}

// Daemon keeps one data dir's summaries and index current. Build it with
// New, start it with Run, stop it with Close.
type Daemon struct {
	app  App
	cons Consolidator
	opts Options
	log  *slog.Logger

	jobs   *jobTable
	work   *worker
	sched  *scheduler
	watch  *dayfiles.Watcher
	socket *SocketServer

	cancel    context.CancelFunc
	wg        sync.WaitGroup
	retries   retries // busy-lock retries, stopped by Close
	indexOnce sync.Once
	trim      trimmer
}

// New returns a Daemon over a, which it uses for its lifetime, consolidating
// with c. It checks the schedule; it starts nothing.
func New(a App, c Consolidator, opts Options) (*Daemon, error) {
	if opts.JumpEvery == 0 {
		opts.JumpEvery = time.Minute
	}
	if opts.JumpTolerance <= 0 {
		opts.JumpTolerance = time.Minute
	}
	if opts.Retry <= 0 {
		opts.Retry = time.Minute
	}
	if opts.CatchUp == 0 {
		opts.CatchUp = catchUpEvery
	}
	d := &Daemon{app: a, cons: c, opts: opts, log: a.Logger().With(logkey.System, "daemon")}
	d.trim.drop = a.DropIndexPages
	sc := opts.Schedule
	d.jobs = newJobTable(specs(sc), sc.OnEdit)
	d.work = newWorker(sc.Debounce, d.reconsolidate, d.jobs)
	sched, err := newScheduler(sc, a.Loc(), d.log, func(job string) { d.work.enqueue(d.jobTask(job)) })
	if err != nil {
		return nil, err
	}
	d.sched = sched
	d.jobs.next = sched.next
	a.OnStatus(func(ctx context.Context, resp *daybook.StatusResponse) { resp.Jobs = d.Jobs() })
	return d, nil
}

// Run starts the worker, the watcher, the schedule, the clock watch and
// the socket server, queues a backfill, and returns. On error, what was
// started is stopped.
func (d *Daemon) Run() error {
	ctx, cancel := context.WithCancel(context.Background())
	d.cancel = cancel
	d.goRun(func() { d.work.loop(ctx) })
	// The index opens after the first backfill: its catch-up then indexes
	// the new summaries in bulk instead of one by one as they are written.
	d.work.enqueue(task{job: JobBackfill, run: func(ctx context.Context) error {
		err := d.backfill(ctx)
		if !d.opts.NoIndex && ctx.Err() == nil {
			d.indexOnce.Do(func() { d.goRun(func() { d.openIndex(ctx) }) })
		}
		return err
	}})
	if !d.opts.NoWatch {
		wo := d.opts.Watch
		wo.Log = d.app.Logger()
		w, err := dayfiles.Watch(d.app.Dir(), wo, func(days []date.Date) { d.changed(ctx, days) })
		if err != nil {
			d.Close(context.Background())
			return err
		}
		d.watch = w
		// What changed while no daemon watched: stale saves, synced copies.
		d.goRun(func() { d.app.CatchUpEdits(ctx) })
	}
	d.sched.start()
	d.goRun(func() { d.trim.loop(ctx, trimEvery, d.log) })
	if d.opts.JumpEvery > 0 {
		d.goRun(func() { jumpWatch(ctx, d.opts.JumpEvery, d.opts.JumpTolerance, d.app.Now, d.jumped) })
	}
	if d.opts.Handler != nil {
		s, err := NewSocketServer(d.opts.SocketPath, d.opts.Handler, d.app.Logger())
		if err != nil {
			d.Close(context.Background())
			return err
		}
		d.socket = s
		d.goRun(func() {
			if err := s.Serve(); err != nil && !errors.Is(err, http.ErrServerClosed) {
				d.log.Error("serving the socket", "path", d.opts.SocketPath, "err", err)
			}
		})
		d.log.Info("listening", "socket", d.opts.SocketPath)
	}
	for _, s := range d.opts.Servers {
		d.goRun(func() {
			if err := s.Serve(); err != nil && !errors.Is(err, http.ErrServerClosed) {
				d.log.Error("serving", "err", err)
			}
		})
	}
	for _, fn := range d.opts.Background {
		d.goRun(func() {
			if err := fn(ctx); err != nil && ctx.Err() == nil {
				d.log.Error("background work stopped", "err", err)
			}
		})
	}
	d.log.Info("started", "dir", d.app.Dir(), "timezone", d.app.Loc().String())
	return nil
}

// Close stops every part: the socket first, then the schedule and the
// watcher, then the running consolidation, which stops between periods so
// that no file is half written. It waits until ctx ends.
func (d *Daemon) Close(ctx context.Context) error {
	var errs []error
	if d.socket != nil {
		errs = append(errs, d.socket.Close(ctx))
	}
	for _, s := range d.opts.Servers {
		errs = append(errs, s.Close(ctx))
	}
	// Cancel first: the clock-jump watch restarts the schedule, and must not
	// do so after it was stopped.
	if d.cancel != nil {
		d.cancel()
	}
	d.sched.stop()
	if d.watch != nil {
		errs = append(errs, d.watch.Close())
	}
	done := make(chan struct{})
	go func() {
		d.wg.Wait()
		// The worker has stopped: no task schedules a retry any more. Stop
		// those waiting, and wait for one firing.
		d.retries.close()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		errs = append(errs, fmt.Errorf("waiting for the daemon's work: %w", ctx.Err()))
	}
	d.log.Info("stopped")
	return errors.Join(errs...)
}

// Jobs returns the last and next run of each job.
func (d *Daemon) Jobs() []daybook.JobStatus { return d.jobs.snapshot() }

func (d *Daemon) goRun(fn func()) {
	d.wg.Add(1)
	go func() { defer d.wg.Done(); fn() }()
}

// IndexLockTimeout is how long the App a daemon serves waits for another
// process (a CLI reindex) to let go of the index.
const IndexLockTimeout = 30 * time.Second

// IndexProgress returns the progress report of a first index build (or an
// earlier format's rebuild), which takes a while: a bar on bar (a
// terminal; nil: the log).
func IndexProgress(bar io.Writer, log *slog.Logger) func(done, total int) {
	p := newProgress(bar, log.With(logkey.System, "daemon"), "index")
	return func(done, total int) {
		p.update(done, total)
		if done >= total {
			p.finish()
		}
	}
}

// openIndex opens the index and catches it up with the files, so that the
// write hooks keep it current from then on, then runs the background
// catch-up.
func (d *Daemon) openIndex(ctx context.Context) {
	start := time.Now()
	if _, err := d.app.Index(ctx); err != nil {
		if ctx.Err() != nil {
			return
		}
		// A request opens it later, and catches it up then; the loop
		// below does nothing while it is closed.
		d.log.Warn("opening the index; recall opens it again when asked", "err", err)
	} else {
		d.log.Info("index open", "took", time.Since(start).Round(time.Millisecond).String())
		// The index logs what it merged.
		if _, err := d.app.CompactIndex(ctx, compactOver); err != nil && ctx.Err() == nil {
			d.log.Warn("compacting the index; recall works on as it is", "err", err)
		}
		d.trim.trim(0) // opening read the whole vector image, a compaction merged
	}
	// From now on the watcher, the write hooks and this loop keep the
	// index current, and no request of an App built with background
	// catch-ups waits for a catch-up.
	if d.opts.CatchUp > 0 {
		d.catchUpLoop(ctx, d.opts.CatchUp)
	}
}

// compactOver is how many index segments the daemon leaves as they are
// when it opens the index: scorch's own merging keeps a daemon's small
// writes at 1-4; an index a bulk build of an earlier daybook left has a
// dozen, each a cost of every search (figures in BENCHMARKS.md, "Figures
// behind the code").
const compactOver = 6

// catchUpEvery is how often the daemon looks for edits no hook or watcher
// reported (a summary edited by hand, say), off the request path.
const catchUpEvery = time.Minute

// catchUpLoop brings the index up to date with the files every interval
// until ctx ends.
func (d *Daemon) catchUpLoop(ctx context.Context, every time.Duration) {
	tick(ctx, every, func() {
		if err := d.app.CatchUp(ctx); err != nil && ctx.Err() == nil {
			d.log.Warn("bringing the index up to date; trying again later", "err", err)
		}
	})
}

// tick calls fn every interval until ctx ends.
func tick(ctx context.Context, every time.Duration, fn func()) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			fn()
		}
	}
}

// changed takes the watcher's report: refresh the days' index entries now,
// their summaries after the debounce.
func (d *Daemon) changed(ctx context.Context, days []date.Date) {
	d.log.Debug("day files changed", "days", len(days), "first", days[0].String())
	d.app.DaysChanged(ctx, days)
	if d.opts.Schedule.OnEdit {
		d.work.changed(days)
	}
}

// jumped restarts cron, whose timers missed the jump, and backfills.
func (d *Daemon) jumped(skew time.Duration) {
	d.log.Warn("the clock jumped; rescheduling and backfilling", "skew", skew.Round(time.Second).String())
	d.sched.restart()
	d.work.enqueue(task{job: JobBackfill, run: d.backfill})
}
