package merge

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/internal/util/date"
	"github.com/daybook/daybook/internal/util/words"
)

// Window is how long an appended entry is guarded against a stale copy
// saved over it: an editor's buffer or a synced copy older than that is
// taken as the person's version.
const Window = 7 * 24 * time.Hour

// Settle is how long a day file that is empty or gone is left alone before
// it is merged: editors that truncate and then write, or rename the old
// file away and then write the new one, leave it so for a moment.
const Settle = 2 * time.Second

// A Keeper appends entries to day files and merges what others wrote to
// them. Every process that appends to a data dir goes through one (the
// CLI's and the daemon's), so that the base on disk knows every append.
// Its work on a day is done under the day file's lock, which appends of
// every process take; nothing is held across days.
type Keeper struct {
	root string
	loc  func() *time.Location
	log  *slog.Logger
	now  func() time.Time

	// Settle overrides the package's Settle (tests); Again is called, after
	// Settle, with the days that were empty or gone when merged.
	settle time.Duration
	again  func([]date.Date)

	mu     sync.Mutex
	timers map[date.Date]*time.Timer
	closed bool
}

// Options configure a Keeper; zero values take defaults.
type Options struct {
	Loc    func() *time.Location // the zone entries' days and times are taken in
	Log    *slog.Logger
	Now    func() time.Time
	Settle time.Duration
	// Again is called, Settle after a merge found a day's file empty or
	// gone, with those days: the daemon passes them to Changed again. Nil
	// looks again only at the next change.
	Again func([]date.Date)
}

// New returns a Keeper for the data dir root.
func New(root string, o Options) *Keeper {
	if o.Loc == nil {
		o.Loc = func() *time.Location { return time.Local }
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Settle <= 0 {
		o.Settle = Settle
	}
	return &Keeper{root: root, loc: o.Loc, log: o.Log.With("system", "merge"), now: o.Now,
		settle: o.Settle, again: o.Again, timers: map[date.Date]*time.Timer{}}
}

// Close stops the timers of days waiting to settle.
func (k *Keeper) Close() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.closed = true
	for d, t := range k.timers {
		t.Stop()
		delete(k.timers, d)
	}
}

// Append appends entries to their day files as dayfiles.AppendMany does
// (dayfiles.Locked.Append with ours not nil), and records them in each
// day's base, under the day's lock. A change to the file that was not
// merged yet is merged first.
func (k *Keeper) Append(entries []dayfiles.NewEntry, ours map[string]int) ([]dayfiles.Written, error) {
	batches, err := dayfiles.ByDay(k.loc(), entries)
	if err != nil {
		return nil, err
	}
	out := make([]dayfiles.Written, len(entries))
	for _, b := range batches {
		ws, err := k.appendDay(b, ours)
		if err != nil {
			return out, err
		}
		for j, i := range b.Index {
			out[i] = ws[j]
		}
	}
	return out, nil
}

func (k *Keeper) appendDay(b dayfiles.Batch, ours map[string]int) ([]dayfiles.Written, error) {
	k.flushPending(b.Date) // entries that waited for a conflict to be resolved go first
	unlock, err := lockDay(k.root, b.Date)
	if err != nil {
		// The append itself says what is wrong if the data dir is not
		// writable; a state/ that alone is not does not stop it.
		k.log.Warn("appending without the merge lock", "day", b.Date.String(), "err", err)
		unlock = func() {}
	}
	defer unlock()
	l, err := dayfiles.LockDay(k.root, b.Date, true)
	if err != nil {
		return nil, err
	}
	defer l.Close()
	if dayfiles.ConflictLine(l.Content()) > 0 {
		return k.appendPending(b)
	}
	st, err := load(k.root, b.Date)
	if err != nil {
		k.log.Warn("the merge base is unreadable; starting a new one", "err", err)
	}
	k.mergeLocked(l, st)
	ws, err := l.Append(b.Lines, ours)
	if err != nil {
		return nil, err
	}
	now := k.now()
	for i, w := range ws {
		if w.ID != "" {
			st.Appended = append(st.Appended, appended{ID: w.ID, Batch: st.Next, At: now, Lines: b.Lines[i]})
		}
	}
	st.Next++
	st.Hash = hash(l.Content())
	st.prune(now.Add(-Window))
	if err := st.save(k.root, b.Date); err != nil {
		// The entries are written: the caller must not be told otherwise.
		k.log.Warn("recording appended entries; a stale copy saved over them will not be noticed", "day", b.Date.String(), "err", err)
	}
	return ws, nil
}

// Changed merges the days whose files changed on disk without daybook, and
// their conflict copies, and returns the days it appended to.
func (k *Keeper) Changed(days []date.Date) []date.Date {
	var wrote, wait []date.Date
	for _, d := range days {
		w, settle := k.changedDay(d)
		if k.mergeCopies(d) {
			w = true
		}
		if k.flushPending(d) {
			w = true
		}
		if w {
			wrote = append(wrote, d)
		}
		if settle {
			wait = append(wait, d)
		}
	}
	k.later(wait)
	return wrote
}

// changedDay merges d's file against its base.
func (k *Keeper) changedDay(d date.Date) (wrote, settle bool) {
	if st, err := load(k.root, d); err == nil && len(st.Appended) == 0 {
		return false, false // daybook appended nothing lately: every change is a person's
	}
	unlock, err := lockDay(k.root, d)
	if err != nil {
		k.log.Warn("cannot merge the day file", "day", d.String(), "err", err)
		return false, false
	}
	defer unlock()
	l, err := dayfiles.LockDay(k.root, d, false)
	if errors.Is(err, os.ErrNotExist) {
		return false, true
	}
	if err != nil {
		k.log.Warn("cannot merge the day file", "day", d.String(), "err", err)
		return false, false
	}
	defer l.Close()
	// Read under the lock: an append in between updates the base.
	st, err := load(k.root, d)
	if err != nil {
		k.log.Warn("cannot merge without the base; keeping the file as it is", "day", d.String(), "err", err)
		return false, false
	}
	r := k.mergeLocked(l, st)
	if r.settle {
		return false, true
	}
	if err := st.save(k.root, d); err != nil {
		k.log.Warn("saving the merge base", "day", d.String(), "err", err)
	}
	return r.wrote, false
}

// later calls k.again with days after the settle time.
func (k *Keeper) later(days []date.Date) {
	if len(days) == 0 || k.again == nil {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.closed {
		return
	}
	for _, d := range days {
		if t, ok := k.timers[d]; ok {
			t.Stop()
		}
		k.timers[d] = time.AfterFunc(k.settle, func() {
			k.mu.Lock()
			delete(k.timers, d)
			closed := k.closed
			k.mu.Unlock()
			if !closed {
				k.again([]date.Date{d})
			}
		})
	}
}

// CatchUp merges every day with a base whose file changed since daybook
// last knew it, as after a restart (the watcher reports only what changes
// while it runs), and every conflict copy under days/. It returns the days
// it appended to.
func (k *Keeper) CatchUp() []date.Date {
	seen := map[date.Date]bool{}
	var days []date.Date
	for _, d := range stateDays(k.root) {
		seen[d] = true
		days = append(days, d)
	}
	for _, c := range ConflictCopies(k.root) {
		if !seen[c.Date] {
			seen[c.Date] = true
			days = append(days, c.Date)
		}
	}
	for _, d := range pendingDays(k.root) {
		if !seen[d] {
			seen[d] = true
			days = append(days, d)
		}
	}
	return k.Changed(days)
}

type mergeResult struct {
	wrote  bool // entries were appended again
	settle bool // the file is empty: look again later
}

// mergeLocked merges l's content against st, the base, and updates st: the
// three-way merge. The writer of the file started from some version
// daybook wrote; as daybook only ever appends, that version held exactly
// the entries daybook appended up to some append. The last append with an
// entry still in the file is taken as that version: entries of it and of
// earlier appends that are missing were removed or changed by the writer,
// who had them, and stay so; entries of later appends that are missing
// were never in the writer's copy and are appended again, once. When the
// writer removed the newest appends themselves, that cannot be told from a
// stale copy: they come back once, with a warning, and a second removal
// sticks, unless the file shows it was made from a copy older than their
// return: it still starts with the stale copy they were appended to, or it
// lacks entries appended after them too.
func (k *Keeper) mergeLocked(l *dayfiles.Locked, st *dayState) mergeResult {
	content := l.Content()
	h := hash(content)
	if h == st.Hash || len(st.Appended) == 0 {
		st.Hash = h
		return mergeResult{}
	}
	path := dayfiles.RelPath(l.Date)
	if len(bytes.TrimSpace(content)) == 0 {
		return mergeResult{settle: true} // truncated by a save under way
	}
	if line := dayfiles.ConflictLine(content); line > 0 {
		k.log.Warn("the day file holds conflict markers; merging it when they are resolved", "path", path, "line", line)
		return mergeResult{}
	}
	day, err := dayfiles.Parse(path, l.Date, content)
	if err != nil {
		k.log.Warn("cannot merge a day file that does not parse; keeping it as it is", "path", path, "err", err)
		return mergeResult{}
	}
	present := map[string]bool{}
	for _, e := range day.Entries {
		present[e.ID] = true
	}
	ours := map[string]bool{}
	last := int64(-1)
	for _, a := range st.Appended {
		ours[a.ID] = true
		if present[a.ID] {
			last = max(last, a.Batch)
		}
	}
	// The text part of the ids of entries nobody appended: a person's.
	theirs := map[string]bool{}
	for _, e := range day.Entries {
		if !ours[e.ID] {
			theirs[dayfiles.EntryID(e.ID).TextHash()] = true
		}
	}
	// The newest append with an entry missing, to tell a stale copy of a
	// stale copy from a deliberate deletion of an entry appended again.
	lastMissing := int64(-1)
	for _, a := range st.Appended {
		if !present[a.ID] {
			lastMissing = max(lastMissing, a.Batch)
		}
	}
	var keep, lost []appended
	for _, a := range st.Appended {
		switch {
		case present[a.ID]:
			keep = append(keep, a)
		case a.Batch <= last:
			k.log.Info("an entry daybook appended was removed or changed by hand; keeping that", "path", path, "id", a.ID)
		case theirs[dayfiles.EntryID(a.ID).TextHash()]:
			k.log.Info("an entry daybook appended was moved to another time by hand; keeping that", "path", path, "id", a.ID)
		case a.Again && lastMissing <= a.Batch && !startsWith(content, a.StaleLen, a.StaleHash):
			k.log.Info("an entry appended again after a stale save was removed again; keeping the removal", "path", path, "id", a.ID)
		default:
			lost = append(lost, a)
		}
	}
	st.Appended = keep
	var r mergeResult
	if len(lost) > 0 {
		lines := make([]string, len(lost))
		for i, a := range lost {
			lines[i] = a.Lines
		}
		ws, err := l.Append(lines, nil)
		if err != nil {
			k.log.Error("appending again entries a stale copy dropped; they are kept in the merge base", "path", path, "err", err)
			st.Appended = append(st.Appended, lost...)
			return r
		}
		now := k.now()
		staleLen, staleHash := len(content), h
		for i, w := range ws {
			a := lost[i]
			a.StaleLen, a.StaleHash = staleLen, staleHash
			k.log.Warn("an acknowledged entry is missing from its day file, saved over by a copy made before it was written (an editor's buffer, a synced file); appending it again",
				"path", path, "line", w.Line, "id", a.ID, "text", clip(a.Lines, 60))
			a.ID, a.Batch, a.Again = w.ID, st.Next, true
			st.Appended = append(st.Appended, a)
			st.Restored = append(st.Restored, restored{ID: w.ID, At: now, Text: clip(a.Lines, 60)})
		}
		st.Next++
		r.wrote = true
	}
	st.Hash = hash(l.Content())
	st.prune(k.now().Add(-Window))
	return r
}

// startsWith reports whether content is longer than n bytes and begins
// with the n bytes whose hash is h: something was added to that copy.
func startsWith(content []byte, n int, h string) bool {
	return h != "" && n < len(content) && hash(content[:n]) == h
}

// clip shortens s to n bytes at most (words.Clip), on one line.
func clip(s string, n int) string { return words.Clip(strings.Join(strings.Fields(s), " "), n) }
