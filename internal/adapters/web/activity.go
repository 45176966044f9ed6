package web

import (
	"cmp"
	"context"
	"log/slog"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// dayStat is what the timeline knows of one day file.
type dayStat struct {
	size    int64
	mtime   time.Time
	entries int
	tags    map[string]int // entries per tag
	err     string         // the file could not be parsed
}

// activity counts the entries of every day file, and the entries of each
// tag, parsing a file again only when its size or modification time
// changed since the last count.
type activity struct {
	dir string
	log *slog.Logger

	mu   sync.Mutex
	days map[date.Date]*dayStat
}

func newActivity(dir string, log *slog.Logger) *activity {
	return &activity{dir: dir, log: log, days: map[date.Date]*dayStat{}}
}

// dayCount is one day of a snapshot.
type dayCount struct {
	Date    date.Date
	Entries int
	Tags    map[string]int
	Err     string
}

// snapshot returns the days that have day files, oldest first, with their
// counts. Files that did not change are not read.
func (a *activity) snapshot(ctx context.Context) ([]dayCount, error) {
	files, err := dayfiles.List(a.dir, date.Range{}, a.log)
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	var changed []dayfiles.File
	for _, f := range files {
		st := a.days[f.Date]
		if st == nil || st.size != f.Size || !st.mtime.Equal(f.ModTime) {
			changed = append(changed, f)
		}
	}
	if err := a.parse(ctx, changed); err != nil {
		return nil, err
	}
	seen := make(map[date.Date]bool, len(files))
	out := make([]dayCount, 0, len(files))
	for _, f := range files {
		seen[f.Date] = true
		st := a.days[f.Date]
		out = append(out, dayCount{Date: f.Date, Entries: st.entries, Tags: st.tags, Err: st.err})
	}
	for d := range a.days {
		if !seen[d] {
			delete(a.days, d)
		}
	}
	return out, nil
}

// parse counts the files on as many goroutines as there are processors;
// a.mu is held.
func (a *activity) parse(ctx context.Context, files []dayfiles.File) error {
	if len(files) == 0 {
		return nil
	}
	start := time.Now()
	stats := make([]*dayStat, len(files))
	workers := min(runtime.GOMAXPROCS(0), len(files))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= len(files) {
					return
				}
				stats[i] = parseStat(files[i])
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	for i, f := range files {
		a.days[f.Date] = stats[i]
	}
	a.log.Debug("counted day files", "parsed", len(files), "duration", time.Since(start))
	return nil
}

func parseStat(f dayfiles.File) *dayStat {
	st := &dayStat{size: f.Size, mtime: f.ModTime}
	day, err := dayfiles.ParseFile(f.Path, f.Date)
	if err != nil {
		st.err = err.Error()
		return st
	}
	st.entries = len(day.Entries)
	for _, e := range day.Entries {
		for _, t := range e.Tags {
			if st.tags == nil {
				st.tags = map[string]int{}
			}
			st.tags[t]++
		}
	}
	return st
}

// count returns a day's entries, or its entries tagged tag when tag is set.
func (d dayCount) count(tag string) int {
	if tag == "" {
		return d.Entries
	}
	return d.Tags[tag]
}

// tagCount is a tag and how many entries carry it.
type tagCount struct {
	Name string
	N    int
}

// topTags returns the n tags with the most entries, most first, ties by name.
func topTags(days []dayCount, n int) []tagCount {
	sum := map[string]int{}
	for _, d := range days {
		for t, c := range d.Tags {
			sum[t] += c
		}
	}
	out := make([]tagCount, 0, len(sum))
	for t, c := range sum {
		out = append(out, tagCount{t, c})
	}
	slices.SortFunc(out, func(a, b tagCount) int {
		return cmp.Or(cmp.Compare(b.N, a.N), cmp.Compare(a.Name, b.Name))
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// byMonth sums the counts of days per month.
func byMonth(days []dayCount, tag string) map[date.Month]int {
	m := map[date.Month]int{}
	for _, d := range days {
		if n := d.count(tag); n > 0 {
			m[d.Date.MonthOf()] += n
		}
	}
	return m
}

// shade returns the shade of a count on a scale of 0 (none) to 4 (the
// most), by its share of max: above 90% is 4, above 70% 3, above 45% 2.
func shade(n, max int) int {
	switch {
	case n <= 0 || max <= 0:
		return 0
	case n*10 > max*9:
		return 4
	case n*10 > max*7:
		return 3
	case n*100 > max*45:
		return 2
	default:
		return 1
	}
}
