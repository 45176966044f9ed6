package dayfiles

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/util/logkey"
	"github.com/fsnotify/fsnotify"
)

// HeartbeatName is the hidden file the Watcher touches in the data dir to
// check that events still arrive. Nothing else reads it. It is not in days/,
// which people sync and keep in git: no file daybook rewrites on a timer is.
const HeartbeatName = ".daybook-heartbeat"

// WatchOptions tunes a Watcher. Zero values take the defaults.
type WatchOptions struct {
	Debounce  time.Duration // quiet time after the last event on a day file; default 200ms
	Heartbeat time.Duration // how often to check that events arrive; default 1m, negative disables
	Log       *slog.Logger
}

// A Watcher reports the days whose files changed under a data dir. fsnotify
// is not recursive, so it watches the data dir, days/ and every year and
// month folder, adding new folders as they appear and reading their files,
// since files written before the watch was added send no event. Editors'
// temporary files (vim's 4913 probe, .swp, ~ backups, .# locks) are not day
// files and are ignored; a save by rename is one change. Bursts of events on
// a file are reported once, Debounce after the last. A change is a difference
// in size or modification time from what the Watcher last saw, so a file
// rewritten with the same bytes and time is not reported.
//
// One goroutine owns all state; onChange is called from it.
type Watcher struct {
	root, days string
	opts       WatchOptions
	log        *slog.Logger
	onChange   func([]date.Date)

	rescanReq chan struct{}
	ctl       chan func(*fsnotify.Watcher) // tests reach the fsnotify watcher through the owner
	cancel    context.CancelFunc
	done      chan struct{}

	// owned by the run goroutine
	fs      *fsnotify.Watcher
	seen    map[date.Date]stamp
	pending map[date.Date]time.Time
	force   map[date.Date]bool // pending days to report even when their file did not change: a conflict copy came
	beat    bool               // an event for the heartbeat file arrived since the last touch
}

type stamp struct {
	size  int64
	mtime time.Time
}

// Watch starts watching root's day files and calls onChange with the days
// whose files changed, were created or were removed, oldest first. The files
// present at start are the baseline and are not reported.
func Watch(root string, opts WatchOptions, onChange func([]date.Date)) (*Watcher, error) {
	if opts.Debounce <= 0 {
		opts.Debounce = 200 * time.Millisecond
	}
	if opts.Heartbeat == 0 {
		opts.Heartbeat = time.Minute
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	w := &Watcher{
		root: root, days: filepath.Join(root, DaysDir), opts: opts,
		log: opts.Log.With(logkey.System, "watch"), onChange: onChange,
		rescanReq: make(chan struct{}, 1), ctl: make(chan func(*fsnotify.Watcher)), done: make(chan struct{}),
		seen: map[date.Date]stamp{}, pending: map[date.Date]time.Time{}, force: map[date.Date]bool{},
	}
	if err := w.start(); err != nil {
		return nil, err
	}
	w.snapshot()
	os.Remove(filepath.Join(w.days, HeartbeatName)) // where versions before 0.9 kept it
	ctx, cancel := context.WithCancel(context.Background())
	w.cancel = cancel
	go w.run(ctx)
	return w, nil
}

// Close stops the Watcher and waits for its goroutine; pending changes are dropped.
func (w *Watcher) Close() error {
	w.cancel()
	<-w.done
	return nil
}

// start opens a new fsnotify watcher on root and every folder under days/.
func (w *Watcher) start() error {
	fw, err := fsnotify.NewBufferedWatcher(1024)
	if err != nil {
		return fmt.Errorf("starting the watcher: %w", err)
	}
	if err := fw.Add(w.root); err != nil {
		fw.Close()
		return fmt.Errorf("watching %s: %w", w.root, err)
	}
	w.fs = fw
	w.addTree()
	return nil
}

// addTree watches days/ and its year and month folders, those that exist.
func (w *Watcher) addTree() {
	if w.fs == nil {
		return // broken: the restart that starts a new one adds the tree
	}
	if err := w.fs.Add(w.days); err != nil {
		return // no days/ yet: the watch on root sees it arrive
	}
	for _, y := range w.subdirs(w.days, 4) {
		w.add(y)
		for _, m := range w.subdirs(y, 2) {
			w.add(m)
		}
	}
}

func (w *Watcher) add(dir string) {
	if err := w.fs.Add(dir); err != nil && !errors.Is(err, os.ErrNotExist) {
		w.log.Warn("cannot watch folder", "path", dir, "err", err)
	}
}

// subdirs lists the folders in dir whose names are width digits.
func (w *Watcher) subdirs(dir string, width int) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if _, ok := number(e.Name(), width); ok && e.IsDir() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// snapshot records every day file as seen.
func (w *Watcher) snapshot() {
	files, _ := List(w.root, date.Range{}, nil)
	for _, f := range files {
		w.seen[f.Date] = stamp{f.Size, f.ModTime}
	}
}

func (w *Watcher) run(ctx context.Context) {
	defer close(w.done)
	defer func() {
		if w.fs != nil {
			w.fs.Close()
		}
	}()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var heartbeat <-chan time.Time
	if w.opts.Heartbeat > 0 {
		t := time.NewTicker(w.opts.Heartbeat)
		defer t.Stop()
		heartbeat = t.C
		w.touchHeartbeat()
	}
	// retry starts a watcher again after a closed one could not be replaced.
	retry := time.NewTimer(time.Hour)
	retry.Stop()
	defer retry.Stop()
	broke := func(why string) {
		if !w.restart(why, true) {
			retry.Reset(w.retryEvery())
		}
	}
	for {
		var events <-chan fsnotify.Event
		var errs <-chan error
		if w.fs != nil { // nil while broken: a nil channel is never ready
			events, errs = w.fs.Events, w.fs.Errors
		}
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case ev, ok := <-events:
			if !ok {
				broke("event channel closed")
				continue
			}
			w.handle(ev)
		case err, ok := <-errs:
			switch {
			case !ok:
				broke("error channel closed")
			case errors.Is(err, fsnotify.ErrEventOverflow):
				w.log.Warn("events overflowed; rescanning day files")
				w.rescan()
			default:
				w.log.Warn("watcher error", "err", err)
			}
		case <-w.rescanReq:
			w.rescan()
		case fn := <-w.ctl:
			fn(w.fs)
		case <-retry.C:
			if w.fs == nil {
				broke("retrying")
			}
		case <-heartbeat:
			if w.fs != nil && !w.beat && w.exists(w.root) {
				w.restart("no heartbeat event", false)
			}
			w.touchHeartbeat()
		case <-timer.C:
		}
		w.flush(timer)
	}
}

// handle takes one event: a folder to watch, a day file to debounce, the
// heartbeat, or days/ itself coming or going.
func (w *Watcher) handle(ev fsnotify.Event) {
	rel, err := filepath.Rel(w.root, ev.Name)
	if err != nil || strings.HasPrefix(rel, "..") {
		return
	}
	rel = filepath.ToSlash(rel)
	parts := strings.Split(rel, "/")
	if rel == HeartbeatName {
		w.beat = true
		return
	}
	if parts[0] != DaysDir {
		return // something else in the data dir
	}
	switch {
	case len(parts) == 1:
		if ev.Has(fsnotify.Create) {
			w.log.Info("days folder appeared; watching it", "path", w.days)
		} else if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
			w.log.Warn("days folder went away", "path", w.days)
		}
		w.rescan()
		w.touchHeartbeat()
		return
	}
	if d, ok := DateOfRel(rel); ok {
		w.pending[d] = time.Now().Add(w.opts.Debounce)
		return
	}
	if d, ok := ConflictCopyDay(rel); ok && !ev.Has(fsnotify.Remove) && !ev.Has(fsnotify.Rename) {
		w.pending[d] = time.Now().Add(w.opts.Debounce)
		w.force[d] = true
		return
	}
	if ev.Has(fsnotify.Create) && (len(parts) == 2 || len(parts) == 3) && w.isFolder(parts) {
		w.log.Debug("new folder; watching it", "path", ev.Name)
		w.fs.Add(ev.Name)
		if len(parts) == 2 {
			for _, m := range w.subdirs(ev.Name, 2) {
				w.add(m)
			}
		}
		// Files may have been written before the watch was added.
		w.rescan()
		return
	}
	w.log.Debug("ignoring event", "path", ev.Name, "op", ev.Op.String())
}

// isFolder reports whether the path parts name a year or month folder.
func (w *Watcher) isFolder(parts []string) bool {
	if _, ok := number(parts[1], 4); !ok {
		return false
	}
	if len(parts) == 3 {
		if m, ok := number(parts[2], 2); !ok || m < 1 || m > 12 {
			return false
		}
	}
	fi, err := os.Lstat(filepath.Join(w.root, filepath.Join(parts...))) // a link is not followed out of days/
	return err == nil && fi.IsDir()
}

// rescan re-adds every folder and marks each day whose file differs from
// what was last seen, including files that are gone, as pending: it is
// reported Debounce later, as an event would be. A rescan may run while a
// file is half written (a new folder's rescan often does), so reporting at
// once would report that day twice, once empty and once whole.
func (w *Watcher) rescan() {
	w.addTree()
	files, err := List(w.root, date.Range{}, nil)
	if err != nil {
		w.log.Warn("rescanning day files", "err", err)
		return
	}
	due := time.Now().Add(w.opts.Debounce)
	mark := func(d date.Date) {
		// A day already pending keeps its time: rescans in a row (a new
		// folder after another, overflows) do not put it off.
		if _, ok := w.pending[d]; !ok {
			w.pending[d] = due
		}
	}
	now := map[date.Date]bool{}
	for _, f := range files {
		now[f.Date] = true
		if old, ok := w.seen[f.Date]; !ok || !old.equal(stamp{f.Size, f.ModTime}) {
			mark(f.Date)
		}
	}
	for d := range w.seen {
		if !now[d] {
			mark(d)
		}
	}
}

// flush reports the days whose debounce ran out and sets timer for the next.
func (w *Watcher) flush(timer *time.Timer) {
	now := time.Now()
	var due []date.Date
	var next time.Time
	for d, t := range w.pending {
		if !t.After(now) {
			due = append(due, d)
			delete(w.pending, d)
		} else if next.IsZero() || t.Before(next) {
			next = t
		}
	}
	var changed []date.Date
	for _, d := range due {
		old, had := w.seen[d]
		fi, err := os.Stat(Path(w.root, d))
		switch {
		case err != nil && had:
			delete(w.seen, d)
			changed = append(changed, d)
		case err != nil && w.force[d]:
			changed = append(changed, d)
		case err != nil:
		case !had || !old.equal(stamp{fi.Size(), fi.ModTime()}) || w.force[d]:
			w.seen[d] = stamp{fi.Size(), fi.ModTime()}
			changed = append(changed, d)
		}
		delete(w.force, d)
	}
	w.report(changed)
	timer.Stop()
	if !next.IsZero() {
		timer.Reset(time.Until(next))
	}
}

func (w *Watcher) report(days []date.Date) {
	if len(days) == 0 {
		return
	}
	slices.SortFunc(days, date.Date.Compare)
	w.log.Debug("day files changed", "days", len(days), "first", days[0].String())
	w.onChange(days)
}

// touchHeartbeat writes the heartbeat file and expects its event.
func (w *Watcher) touchHeartbeat() {
	w.beat = false
	p := filepath.Join(w.root, HeartbeatName)
	if err := os.WriteFile(p, []byte(time.Now().UTC().Format(time.RFC3339Nano)+"\n"), 0o644); err != nil && !errors.Is(err, os.ErrNotExist) {
		w.log.Debug("touching heartbeat", "path", p, "err", err)
	}
}

// restart replaces a watcher that went quiet or, with broken, whose
// channels closed, and rescans; it says whether a new watcher runs. When
// none can be started, a quiet watcher is kept for the next heartbeat to try
// again, and a broken one is closed and dropped (w.fs nil): reading its
// closed channels would spin.
func (w *Watcher) restart(why string, broken bool) bool {
	w.log.Warn("restarting the watcher", "reason", why)
	old := w.fs
	if err := w.start(); err != nil {
		w.log.Error("restarting the watcher", "err", err)
		if broken && old != nil {
			old.Close()
			w.fs = nil
		}
		return false
	}
	if old != nil {
		old.Close()
	}
	w.rescan()
	return true
}

// retryEvery is how long a broken watcher waits before starting again: the
// heartbeat, or a minute without one.
func (w *Watcher) retryEvery() time.Duration {
	if w.opts.Heartbeat > 0 {
		return w.opts.Heartbeat
	}
	return time.Minute
}

func (w *Watcher) exists(p string) bool { _, err := os.Stat(p); return err == nil }

func (s stamp) equal(t stamp) bool { return s.size == t.size && s.mtime.Equal(t.mtime) }
