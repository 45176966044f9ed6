package app

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/daybook/daybook/date"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/words"
)

// An editor that saves a buffer it read before daybook appended an entry
// (vim writes DD.md.tmp and renames it over DD.md) drops that entry from
// the file although daybook acknowledged it. The guard keeps the entries
// the App acknowledged in the last guardWindow; when the daemon's watcher
// reports that a day file changed, acknowledged entries that are gone are
// appended again, with a warning in the log. Whether a person deleted an
// entry on purpose or saved a buffer that never held it cannot be told
// from the file, and losing an acknowledged entry is the worse mistake: an
// entry comes back up to maxRestores times, and the deletion after that
// sticks. One whose time and at least half of whose words are still in the
// file was edited, not lost, and the edit is kept.
const (
	guardWindow = 24 * time.Hour
	guardMax    = 100_000 // acknowledged entries kept at most, oldest day dropped first
	maxRestores = 2
	idBaseLen   = len("2026-11-22T09:14-3fa2b1c4d5e6")
)

type ackGuard struct {
	mu   sync.Mutex
	days map[date.Date][]ackedEntry
	n    int
	// pending counts, per day, the appends written or being written whose
	// entries are not noted yet; restoreVanished waits (on idle) until its
	// day has none. An entry written but not noted would look like a
	// person's, and an acknowledged entry of the same minute sharing half
	// its words (two remembers a second apart often do) like one the
	// person edited into it, so not restored. Seen under load: 22
	// acknowledged entries lost in 8 s. Per day, so that an import's batch
	// keeps only the check of its own days waiting, not every remember.
	pending map[date.Date]int
	idle    *sync.Cond // signalled when a day's pending count drops
}

// appendNoted runs write, an append of entries, and notes what it wrote as
// acknowledged before a restoreVanished can read their days.
func (a *App) appendNoted(entries []dayfiles.NewEntry, write func() ([]dayfiles.Written, error)) ([]dayfiles.Written, error) {
	g := &a.guard
	loc := a.Loc()
	var days []date.Date
	g.mu.Lock()
	if g.pending == nil {
		g.pending = map[date.Date]int{}
		g.idle = sync.NewCond(&g.mu)
	}
	for _, e := range entries {
		d := date.Of(e.At.In(loc))
		if !slices.Contains(days, d) {
			days = append(days, d)
			g.pending[d]++
		}
	}
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		for _, d := range days {
			if g.pending[d]--; g.pending[d] == 0 {
				delete(g.pending, d)
			}
		}
		g.idle.Broadcast()
	}()
	ws, err := write()
	a.noteAcked(entries, ws)
	return ws, err
}

type ackedEntry struct {
	e     dayfiles.NewEntry
	base  string    // its id without the "-n" of a repeat
	at    time.Time // when it was acknowledged
	again int       // times appended again
}

// noteAcked records entries as acknowledged; ws[i] says where entries[i]
// landed, with an empty ID for one that was not written.
func (a *App) noteAcked(entries []dayfiles.NewEntry, ws []dayfiles.Written) {
	g := &a.guard
	now := a.Now()
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.days == nil {
		g.days = map[date.Date][]ackedEntry{}
	}
	for i, w := range ws {
		if i >= len(entries) || w.ID == "" {
			continue
		}
		g.days[w.Date] = append(g.days[w.Date], ackedEntry{e: entries[i], base: idBase(w.ID), at: now})
		g.n++
	}
	if g.n > guardMax {
		g.prune(now, true)
	}
}

// prune drops what is older than the window, and with full the oldest days
// until under guardMax.
func (g *ackGuard) prune(now time.Time, full bool) {
	for d, list := range g.days {
		k := 0
		for _, x := range list {
			if now.Sub(x.at) < guardWindow {
				list[k] = x
				k++
			}
		}
		g.n -= len(list) - k
		if k == 0 {
			delete(g.days, d)
		} else {
			g.days[d] = list[:k]
		}
	}
	for full && g.n > guardMax {
		var oldest date.Date
		first := true
		for d := range g.days {
			if first || d.Before(oldest) {
				oldest, first = d, false
			}
		}
		g.n -= len(g.days[oldest])
		delete(g.days, oldest)
	}
}

// restoreVanished appends again the acknowledged entries of days that are no
// longer in their files. The daemon calls it, through DaysChanged, when the
// watcher reports the days changed on disk.
func (a *App) restoreVanished(ctx context.Context, days []date.Date) {
	log := a.Log.With("system", "guard")
	type restoring struct {
		d date.Date
		i int
	}
	var again []dayfiles.NewEntry
	var where []restoring
	g := &a.guard
	g.mu.Lock()
	defer g.mu.Unlock()
	g.prune(a.Now(), false)
	for _, d := range days {
		for g.pending[d] > 0 {
			g.idle.Wait() // an append to d is not noted yet
		}
		list := g.days[d]
		if len(list) == 0 {
			continue
		}
		path := dayfiles.Path(a.Dir, d)
		day, err := dayfiles.ParseFile(path, d)
		// A missing file is not a deletion to honour: an editor that saves by
		// renaming the old file away and writing a new one leaves the path
		// empty for a moment, and that is when the guard is needed most.
		if err != nil {
			log.Warn("cannot check the day's acknowledged entries", "path", path, "err", err)
			continue
		}
		have := map[string]int{}
		for _, e := range day.Entries {
			have[dayfiles.EntryID(d, e.Hour, e.Minute, e.Text, 0)]++
		}
		// First what is there; what is left in have after that are the
		// entries nobody acknowledged: a person's, or an edited one.
		gone := make([]bool, len(list))
		for i, x := range list {
			if have[x.base] > 0 {
				have[x.base]--
			} else {
				gone[i] = true
			}
		}
		k := 0
		for i, x := range list {
			if gone[i] {
				why := ""
				switch {
				case x.again >= maxRestores:
					why = "an acknowledged entry vanished again after being restored; taking it as deleted"
				case edited(x.e, day, have, a.Loc()):
					why = "an acknowledged entry was edited; keeping the edit"
				}
				if why != "" {
					log.Info(why, "path", path, "id", x.base)
					g.n--
					continue
				}
				again = append(again, x.e)
				where = append(where, restoring{d, k})
			}
			list[k] = x
			k++
		}
		g.days[d] = list[:k]
	}
	if len(again) == 0 {
		return
	}
	ws, err := dayfiles.AppendMany(a.Dir, a.Loc(), again)
	for i, w := range ws {
		if w.ID == "" {
			continue
		}
		x := &g.days[where[i].d][where[i].i]
		x.again, x.base = x.again+1, idBase(w.ID)
		log.Warn("an acknowledged entry vanished from its day file, most likely saved over by an editor that read the file before it was written; appending it again",
			"path", w.Rel, "line", w.Line, "id", w.ID, "text", words.Clip(again[i].Text, 60))
	}
	if err != nil {
		log.Error("appending vanished entries again", "err", err)
	}
}

// edited reports whether day holds, at x's time, an entry nobody
// acknowledged (its base id is in unknown) that shares at least half of x's
// words: a person changed the entry rather than losing it.
func edited(x dayfiles.NewEntry, day *dayfiles.Day, unknown map[string]int, loc *time.Location) bool {
	at := x.At.In(loc)
	words := strings.Fields(strings.ToLower(x.Text))
	if len(words) == 0 {
		return false
	}
	for _, e := range day.Entries {
		if e.Hour != at.Hour() || e.Minute != at.Minute() || unknown[dayfiles.EntryID(day.Date, e.Hour, e.Minute, e.Text, 0)] == 0 {
			continue
		}
		theirs := map[string]bool{}
		for _, w := range strings.Fields(strings.ToLower(e.Text)) {
			theirs[w] = true
		}
		shared := 0
		for _, w := range words {
			if theirs[w] {
				shared++
			}
		}
		if 2*shared >= len(words) {
			return true
		}
	}
	return false
}

func idBase(id string) string {
	if len(id) > idBaseLen {
		return id[:idBaseLen]
	}
	return id
}
