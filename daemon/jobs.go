package daemon

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
)

// Job names, as "daybook status" shows them.
const (
	JobBackfill = "backfill"
	JobDaily    = "daily"
	JobMonthly  = "monthly"
	JobYearly   = "yearly"
	JobOnEdit   = "on_edit"
)

// task is one piece of consolidation work. The worker runs tasks one at a
// time, since a consolidation holds the data dir's consolidation lock.
type task struct {
	job string
	run func(ctx context.Context) error
}

// worker owns the queue of tasks and the days waiting out the edit
// debounce. Anyone may enqueue; only the worker's goroutine runs tasks.
type worker struct {
	debounce time.Duration
	onEdit   func(ctx context.Context, days []date.Date) error
	jobs     *jobTable

	mu     sync.Mutex
	queue  []task
	edited map[date.Date]time.Time // day → when its debounce runs out
	wake   chan struct{}
}

func newWorker(debounce time.Duration, onEdit func(context.Context, []date.Date) error, jobs *jobTable) *worker {
	return &worker{debounce: debounce, onEdit: onEdit, jobs: jobs, edited: map[date.Date]time.Time{}, wake: make(chan struct{}, 1)}
}

// enqueue adds t unless a task of the same job already waits.
func (w *worker) enqueue(t task) {
	w.mu.Lock()
	if !slices.ContainsFunc(w.queue, func(q task) bool { return q.job == t.job }) {
		w.queue = append(w.queue, t)
	}
	w.mu.Unlock()
	w.poke()
}

// changed restarts the debounce of days.
func (w *worker) changed(days []date.Date) {
	due := time.Now().Add(w.debounce)
	w.mu.Lock()
	for _, d := range days {
		w.edited[d] = due
	}
	w.mu.Unlock()
	w.poke()
}

func (w *worker) poke() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// loop runs tasks until ctx ends. A running task sees ctx end and stops
// between periods; queued ones are dropped.
func (w *worker) loop(ctx context.Context) {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for ctx.Err() == nil {
		t, wait := w.next()
		if t != nil {
			start := time.Now()
			w.jobs.start(t.job)
			err := t.run(ctx)
			if ctx.Err() != nil {
				return // abandoned: not a failure of the job
			}
			w.jobs.finish(t.job, start, err)
			continue
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
		case <-w.wake:
		case <-timer.C:
		}
		timer.Stop()
	}
}

// next returns the next task to run, or how long to wait for one: queued
// jobs first, then the edited days whose debounce ran out, all at once.
func (w *worker) next() (*task, time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.queue) > 0 {
		t := w.queue[0]
		w.queue = w.queue[1:]
		return &t, 0
	}
	now := time.Now()
	wait := time.Hour
	var due []date.Date
	for d, t := range w.edited {
		if !t.After(now) {
			due = append(due, d)
			delete(w.edited, d)
		} else if t.Sub(now) < wait {
			wait = t.Sub(now)
		}
	}
	if len(due) == 0 {
		return nil, wait
	}
	slices.SortFunc(due, date.Date.Compare)
	return &task{job: JobOnEdit, run: func(ctx context.Context) error { return w.onEdit(ctx, due) }}, 0
}

// jobTable records the last and next run of every job for "daybook status".
type jobTable struct {
	mu   sync.Mutex
	jobs []daybook.JobStatus
	next func(job string) time.Time // the scheduler's next run; zero when not scheduled
}

// newJobTable lists the backfill, the scheduled jobs whose spec is not
// empty, and on_edit when onEdit is true.
func newJobTable(specs map[string]string, onEdit bool) *jobTable {
	t := &jobTable{next: func(string) time.Time { return time.Time{} }}
	for _, name := range []string{JobBackfill, JobDaily, JobMonthly, JobYearly, JobOnEdit} {
		spec, scheduled := specs[name]
		if (scheduled && spec == "") || (name == JobOnEdit && !onEdit) {
			continue // disabled in the config
		}
		t.jobs = append(t.jobs, daybook.JobStatus{Name: name, Spec: spec})
	}
	return t
}

func (t *jobTable) start(job string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if j := t.find(job); j != nil {
		j.Running = true
	}
}

func (t *jobTable) finish(job string, start time.Time, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	j := t.find(job)
	if j == nil {
		return
	}
	j.Running, j.LastRun, j.LastError = false, start, ""
	if err != nil {
		j.LastError = err.Error()
	}
}

func (t *jobTable) find(job string) *daybook.JobStatus {
	for i := range t.jobs {
		if t.jobs[i].Name == job {
			return &t.jobs[i]
		}
	}
	return nil
}

// snapshot returns every job's status with its next run.
func (t *jobTable) snapshot() []daybook.JobStatus {
	t.mu.Lock()
	out := slices.Clone(t.jobs)
	t.mu.Unlock()
	for i := range out {
		out[i].NextRun = t.next(out[i].Name)
	}
	return out
}
