package app

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/assemble"
)

// contextFiles is the context's assemble.Files kept between calls: the
// listings of the summaries and day files, and the summaries and days
// parsed, so that a context does not stat every file of the data dir and
// parse its summaries again on every call (in a long-lived process: the
// daemon, the memory proxy).
//
// A listing is dropped when a write through the App, a change the watcher
// reported (DaysChanged) or a summary written (OnSummary) says so, and when
// a folder's modification time changed (a file added, removed or renamed
// behind the App's back): each call stats the folders a listing came from,
// some 70 for five years, not the ~3,500 files. The day files are listed
// month by month, and a write drops only its month's listing: a chat turn
// remembered through the memory proxy costs the next context one month
// folder read again, not the whole tree. A parsed file is kept with its
// Lstat and used only while the file's size, modification time and mode
// are the same; past the most kept, the least recently used quarter goes.
// Files or folders changed within racyWindow of being read are not kept,
// as a change within the same clock tick would not show.
type contextFiles struct {
	dir string
	mu  sync.Mutex
	// gen counts the writes reported; a listing begun before one is not kept.
	gen uint64
	// The listings and the folders they came from; nil: list again.
	summaries    []consolidate.File
	summaryDirs  map[string]time.Time
	days         []dayfiles.File
	dayDirs      map[string]time.Time
	dayMonths    map[string]monthFiles // by month folder: what days lists again
	summaryCache map[string]parsedFile[*consolidate.Summary]
	dayCache     map[date.Date]parsedFile[*dayfiles.Day]
	tick         uint64 // counts the cache's uses: when each was last used
}

// monthFiles is the listing of one month folder of days/, with the
// folder's modification time when it was read.
type monthFiles struct {
	mtime time.Time
	files []dayfiles.File
}

// growWindow: a day file modified this recently is kept parsed even when it
// changed since, so that when it grows (today's, as entries are remembered)
// it is parsed from its last entry on (dayfiles.ParseGrown); an older one is
// parsed whole.
const growWindow = 48 * time.Hour

// racyWindow: a file or folder modified this close to when it was read may
// change again without its modification time moving, so it is not kept.
const racyWindow = 2 * time.Second

// How many parsed summaries and days are kept; past it a cache starts over.
// A default context reads some 35 summaries (years, the last months, the
// last 14 days) and the last few days for its recent part; a query adds its
// hits' summaries and its evidence's days, which the next turns of a
// conversation often share. Measured on 5 generated years, the daemon's
// resident size after 100 contexts of 4,000 tokens for 50 questions:
// nothing kept 125 MiB; 128 summaries and 128 days 140 MiB (a repeated
// query 30 ms instead of 56 ms with 16 days); 1,024 summaries 155 MiB;
// 1,024 summaries and 512 days 211 MiB.
const (
	maxCachedSummaries = 128
	maxCachedDays      = 128
)

// stamp is what tells that a file changed.
type stamp struct {
	size  int64
	mtime time.Time
	mode  fs.FileMode
}

func stampOf(fi fs.FileInfo) stamp { return stamp{fi.Size(), fi.ModTime(), fi.Mode()} }

// parsedFile is a file parsed, with the stamp it had when read.
type parsedFile[V any] struct {
	stamp stamp
	v     V
	used  uint64 // contextFiles.tick when last used
	// base: kept only to grow from, never given for its stamp (the file
	// changed since, or was read within racyWindow of a change).
	base bool
}

func newContextFiles(dir string) *contextFiles {
	return &contextFiles{dir: dir, summaryCache: map[string]parsedFile[*consolidate.Summary]{},
		dayCache: map[date.Date]parsedFile[*dayfiles.Day]{}, dayMonths: map[string]monthFiles{}}
}

var _ assemble.Files = (*contextFiles)(nil)

// changedDays drops the day listing, its months of the days given, and
// those days: they were written.
func (c *contextFiles) changedDays(days []date.Date) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.days, c.dayDirs = nil, nil
	for _, d := range days {
		if p, ok := c.dayCache[d]; ok {
			p.base = true // what was read is still what a grown file starts with, or not: ParseGrown checks
			c.dayCache[d] = p
		}
		delete(c.dayMonths, filepath.Dir(dayfiles.Path(c.dir, d)))
	}
}

// changedSummary drops the summary listing and the summary at path.
func (c *contextFiles) changedSummary(path string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.summaries, c.summaryDirs = nil, nil
	delete(c.summaryCache, path)
}

// Summaries lists the summary files of every level.
func (c *contextFiles) Summaries() ([]consolidate.File, error) {
	c.mu.Lock()
	if c.summaries != nil && same(c.summaryDirs) {
		defer c.mu.Unlock()
		return c.summaries, nil
	}
	gen := c.gen
	c.mu.Unlock()
	at := time.Now()
	dirs := folders(filepath.Join(c.dir, consolidate.SummariesDir), 2)
	files, err := consolidate.List(c.dir, "", date.Range{})
	if err != nil || files == nil || racy(dirs, at) {
		return files, err
	}
	c.mu.Lock()
	if c.gen == gen {
		c.summaries, c.summaryDirs = files, dirs
	}
	c.mu.Unlock()
	return files, nil
}

// Days lists the day files in r.
func (c *contextFiles) Days(r date.Range) ([]dayfiles.File, error) {
	c.mu.Lock()
	all, ok := c.days, c.days != nil && same(c.dayDirs)
	c.mu.Unlock()
	if !ok {
		var err error
		if all, err = c.listDays(); err != nil {
			return nil, err
		}
	}
	// all is sorted by date: cut r out of it.
	from, _ := slices.BinarySearchFunc(all, r.From, func(f dayfiles.File, d date.Date) int { return f.Date.Compare(d) })
	if r.From.IsZero() {
		from = 0
	}
	to := len(all)
	if !r.To.IsZero() {
		to, _ = slices.BinarySearchFunc(all, r.To.AddDays(1), func(f dayfiles.File, d date.Date) int { return f.Date.Compare(d) })
	}
	if from >= to {
		return nil, nil
	}
	return all[from:to:to], nil
}

// listDays lists the day files month by month, reading again only the
// month folders that changed since they were listed, and keeps the
// listing unless a folder changed within racyWindow or a write was
// reported meanwhile.
func (c *contextFiles) listDays() ([]dayfiles.File, error) {
	c.mu.Lock()
	gen := c.gen
	c.mu.Unlock()
	at := time.Now()
	root := filepath.Join(c.dir, dayfiles.DaysDir)
	if _, err := os.Lstat(root); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	dirs := folders(root, 2)
	var months []string // month folders: two levels under root
	for dir := range dirs {
		if filepath.Dir(filepath.Dir(dir)) == root {
			months = append(months, dir)
		}
	}
	slices.Sort(months)
	var all []dayfiles.File
	fresh := map[string]monthFiles{}
	for _, dir := range months {
		c.mu.Lock()
		m, ok := c.dayMonths[dir]
		c.mu.Unlock()
		if !ok || !m.mtime.Equal(dirs[dir]) {
			mo, ok := monthOf(root, dir)
			if !ok {
				continue // not a month's folder: List ignores it too
			}
			files, err := dayfiles.List(c.dir, mo.Range(), nil)
			if err != nil {
				return nil, err
			}
			m = monthFiles{mtime: dirs[dir], files: files}
			if at.Sub(m.mtime) >= racyWindow {
				fresh[dir] = m
			}
		}
		all = append(all, m.files...)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return all, nil
	}
	maps.DeleteFunc(c.dayMonths, func(dir string, _ monthFiles) bool { _, ok := dirs[dir]; return !ok }) // removed
	maps.Copy(c.dayMonths, fresh)
	if all != nil && !racy(dirs, at) {
		c.days, c.dayDirs = all, dirs
	}
	return all, nil
}

// monthOf returns the month of a folder days/YYYY/MM under root.
func monthOf(root, dir string) (date.Month, bool) {
	rel, err := filepath.Rel(root, dir)
	if err != nil {
		return date.Month{}, false
	}
	y, m, ok := strings.Cut(filepath.ToSlash(rel), "/")
	year, err1 := strconv.Atoi(y)
	month, err2 := strconv.Atoi(m)
	if !ok || err1 != nil || err2 != nil || len(y) != 4 || len(m) != 2 || month < 1 || month > 12 {
		return date.Month{}, false
	}
	return date.Month{Year: year, Month: time.Month(month)}, true
}

// Summary reads the summary at path, or gives the one read before if the
// file did not change since.
func (c *contextFiles) Summary(path string) (*consolidate.Summary, error) {
	return keep(c, c.summaryCache, maxCachedSummaries, path, path, false, func(parsedFile[*consolidate.Summary]) (*consolidate.Summary, error) {
		return consolidate.ReadSummary(path) // its error names what is wrong
	})
}

// Day parses the day file of d, or gives the one parsed before if the
// file did not change since. A file that grew since it was read (today's,
// as entries are remembered) is parsed from its last entry then on.
func (c *contextFiles) Day(d date.Date) (*dayfiles.Day, error) {
	path := dayfiles.Path(c.dir, d)
	return keep(c, c.dayCache, maxCachedDays, d, path, true, func(prev parsedFile[*dayfiles.Day]) (*dayfiles.Day, error) {
		data, err := dayfiles.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return dayfiles.ParseGrown(path, d, prev.v, data) // Parse when prev is not what data grew from
	})
}

// ParseDay parses data, the content of the day file of d that the index
// read, from the day kept before when data grew from it: after a remembered
// turn the index reads today's file before any context does. What it
// parses replaces the day kept, as a base to grow from (never given for a
// stamp: data was not read with one); a day not kept is not kept then (a
// full build reads every day, and would empty the cache).
func (c *contextFiles) ParseDay(path string, d date.Date, data []byte) (*dayfiles.Day, error) {
	c.mu.Lock()
	prev, had := c.dayCache[d]
	c.mu.Unlock()
	day, err := dayfiles.ParseGrown(path, d, prev.v, data)
	if err != nil || !had || day == prev.v || path != dayfiles.Path(c.dir, d) {
		return day, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if cur, ok := c.dayCache[d]; !ok || cur.v != prev.v {
		return day, nil // dropped, or another read kept a newer one meanwhile
	}
	c.tick++
	c.dayCache[d] = parsedFile[*dayfiles.Day]{v: day, used: c.tick, base: true}
	return day, nil
}

// keep returns what load parses of the file at path, kept in cache under
// key: the one parsed before while the file's stamp is the same, else a new
// parse (load is given the one kept before, or the zero one), kept unless the file
// is not a regular one, changed within racyWindow of being read, or a write
// was reported meanwhile; then, if it grows (a day) and was modified within
// growWindow, it is kept only as a base to grow from. Past max files the
// least recently used quarter is dropped.
func keep[K comparable, V any](c *contextFiles, cache map[K]parsedFile[V], max int, key K, path string, grows bool, load func(prev parsedFile[V]) (V, error)) (V, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return load(parsedFile[V]{})
	}
	st := stampOf(fi)
	c.mu.Lock()
	hit, ok := cache[key]
	gen := c.gen
	if ok && !hit.base && hit.stamp == st {
		c.tick++
		hit.used = c.tick
		cache[key] = hit
		c.mu.Unlock()
		return hit.v, nil
	}
	c.mu.Unlock()
	at := time.Now()
	v, err := load(hit)
	if err != nil || !st.mode.IsRegular() {
		return v, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	base := at.Sub(st.mtime) < racyWindow || c.gen != gen
	if base && !(grows && at.Sub(st.mtime) <= growWindow) {
		return v, nil
	}
	if _, kept := cache[key]; !kept && len(cache) >= max {
		evictOldest(cache, max/4)
	}
	c.tick++
	cache[key] = parsedFile[V]{stamp: st, v: v, used: c.tick, base: base}
	return v, nil
}

// evictOldest drops the n least recently used files of cache (at least one).
func evictOldest[K comparable, V any](cache map[K]parsedFile[V], n int) {
	used := make([]uint64, 0, len(cache))
	for _, p := range cache {
		used = append(used, p.used)
	}
	slices.Sort(used)
	limit := used[min(max(n, 1), len(used))-1]
	maps.DeleteFunc(cache, func(_ K, p parsedFile[V]) bool { return p.used <= limit })
}

// folders returns the modification times of root and of the folders under
// it, depth levels down (years, months); a missing root gives an empty map.
func folders(root string, depth int) map[string]time.Time {
	out := map[string]time.Time{}
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		fi, err := os.Lstat(dir)
		if err != nil || !fi.IsDir() {
			return
		}
		out[dir] = fi.ModTime()
		if depth == 0 {
			return
		}
		ents, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range ents {
			if e.IsDir() {
				walk(filepath.Join(dir, e.Name()), depth-1)
			}
		}
	}
	walk(root, depth)
	return out
}

// same reports whether the folders still have the modification times of
// dirs.
func same(dirs map[string]time.Time) bool {
	for dir, mt := range dirs {
		fi, err := os.Lstat(dir)
		if err != nil || !fi.ModTime().Equal(mt) {
			return false
		}
	}
	return true
}

// racy reports whether a folder was modified within racyWindow of at.
func racy(dirs map[string]time.Time, at time.Time) bool {
	for _, mt := range dirs {
		if at.Sub(mt) < racyWindow {
			return true
		}
	}
	return false
}
