package consolidate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// run is one Run (or, dry, one Stale) over a data dir.
type run struct {
	c     *Consolidator
	opts  RunOptions
	log   *slog.Logger
	dry   bool // plan only: Stale
	today date.Date
	st    *state

	stats   Stats
	stale   []Period
	changed bool                 // st differs from the file
	written map[string]bool      // ids written (or due, when dry) in this run
	hashes  map[string]string    // current file hash of summaries by id; "" when missing
	facts   map[date.Date]*facts // of the days parsed in this run, until their month is built
	months  map[Period]*facts    // of the months built in this run, for their year
	done    int
	total   int
}

func (c *Consolidator) newRun(opts RunOptions, dry bool) *run {
	log := c.logger()
	return &run{
		c: c, opts: opts, log: log, dry: dry, today: c.Today(), st: loadState(c.Root, log),
		written: map[string]bool{}, hashes: map[string]string{}, facts: map[date.Date]*facts{},
		months: map[Period]*facts{},
	}
}

// child is a summary one level down, an input of a month or a year.
type child struct {
	p    Period
	rec  *sumRecord
	hash string
}

func (r *run) do(ctx context.Context) error {
	rng, ok := r.opts.Range.Intersect(date.Range{To: r.today.AddDays(-1)})
	if !ok {
		return nil
	}
	files, err := dayfiles.List(r.c.Root, rng, r.log)
	if err != nil {
		return err
	}
	months, years := r.parentsInScope(files)
	if r.does(date.LevelDay) {
		r.total += len(files)
	}
	if r.does(date.LevelMonth) {
		r.total += len(months)
	}
	if r.does(date.LevelYear) {
		r.total += len(years)
	}
	if r.does(date.LevelDay) {
		if err := r.days(ctx, rng, files); err != nil {
			return err
		}
	}
	if r.does(date.LevelMonth) {
		for _, m := range months {
			if err := r.parent(ctx, m); err != nil {
				return err
			}
		}
	}
	if r.does(date.LevelYear) {
		for _, y := range years {
			if err := r.parent(ctx, y); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *run) does(l date.Level) bool { return r.opts.Level == "" || r.opts.Level == l }

func (r *run) step() {
	r.done++
	if r.opts.Progress != nil {
		r.opts.Progress(r.done, r.total)
	}
}

// parentsInScope returns the closed months and years that overlap the range
// and hold a day file or a summary, oldest first.
func (r *run) parentsInScope(files []dayfiles.File) (months, years []Period) {
	seen := map[Period]bool{}
	add := func(p Period) {
		if !seen[p] && p.Closed(r.today) && r.opts.Range.Overlaps(p.Range()) {
			seen[p] = true
			if p.Level == date.LevelMonth {
				months = append(months, p)
			} else {
				years = append(years, p)
			}
		}
	}
	for _, f := range files {
		add(MonthPeriod(f.Date.MonthOf()))
		add(YearPeriod(f.Date.Year))
	}
	for id := range r.st.Summaries {
		if p, err := periodOfID(id); err == nil {
			add(p.Parent())
			if p.Level == date.LevelDay {
				add(YearPeriod(p.Year))
			}
		}
	}
	slices.SortFunc(months, comparePeriods)
	slices.SortFunc(years, comparePeriods)
	return months, years
}

func periodOfID(id string) (Period, error) {
	level, s, ok := strings.Cut(id, ":")
	if !ok {
		return Period{}, fmt.Errorf("bad summary id %q", id)
	}
	return ParsePeriod(date.Level(level), s)
}

// days consolidates the day files, oldest first: a sorted diff of the files'
// size and time against the state, reading a file only when they differ or
// its summary is not as recorded.
func (r *run) days(ctx context.Context, rng date.Range, files []dayfiles.File) error {
	old := r.st.Days
	var added []dayRecord
	defer func() {
		if len(added) > 0 {
			r.st.Days = append(r.st.Days, added...)
			slices.SortFunc(r.st.Days, func(a, b dayRecord) int { return strings.Compare(a.Date, b.Date) })
		}
		r.st.Days = slices.DeleteFunc(r.st.Days, func(d dayRecord) bool { return d.Date == "" })
	}()
	i := 0
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		key := f.Date.String()
		for ; i < len(old) && old[i].Date < key; i++ {
			if err := r.gone(ctx, rng, &old[i]); err != nil {
				return err
			}
		}
		var rec *dayRecord
		if i < len(old) && old[i].Date == key {
			rec = &old[i]
			i++
		} else {
			added = append(added, dayRecord{Date: key})
			rec = &added[len(added)-1]
		}
		if err := r.day(ctx, f, rec); err != nil {
			return err
		}
		r.step()
	}
	for ; i < len(old); i++ {
		if err := r.gone(ctx, rng, &old[i]); err != nil {
			return err
		}
	}
	return nil
}

// gone handles a recorded day whose file is no longer listed.
func (r *run) gone(ctx context.Context, rng date.Range, rec *dayRecord) error {
	d, err := date.Parse(rec.Date)
	if err != nil || !rng.Contains(d) {
		return nil
	}
	if _, err := os.Stat(dayfiles.Path(r.c.Root, d)); err == nil {
		return nil // listed before it was written, or not a regular file: leave it be
	}
	r.log.Info("day file is gone", "path", dayfiles.RelPath(d))
	if !r.dry {
		rec.Date = ""
		r.changed = true
	}
	return r.retire(ctx, DayPeriod(d))
}

// day brings the summary of one day file up to date.
func (r *run) day(ctx context.Context, f dayfiles.File, rec *dayRecord) error {
	p := DayPeriod(f.Date)
	rel := dayfiles.RelPath(f.Date)
	sum := r.st.Summaries[p.ID()]
	same := rec.Size == f.Size && rec.MTime == f.ModTime.UnixNano() && rec.Digest != ""
	if same && !r.opts.Force && !r.opts.Upgrade {
		switch {
		case rec.Skipped != "":
			r.stats.Skipped = append(r.stats.Skipped, Skipped{Path: rel, Reason: rec.Skipped})
			return nil
		case rec.Empty:
			return nil
		case sum != nil && sum.Digest == rec.Digest && r.currentHash(p) == sum.Hash:
			r.stats.Unchanged++
			return nil
		}
	}
	data, err := readDay(f.Path, rel)
	var day *dayfiles.Day
	if err == nil {
		day, err = dayfiles.Parse(rel, f.Date, data) // errors name the file as the data dir knows it
	}
	*rec = dayRecord{Date: rec.Date, Size: f.Size, MTime: f.ModTime.UnixNano(), Digest: dayDigest(data)}
	r.changed = true
	if err != nil {
		rec.Skipped = err.Error()
		r.log.Warn("skipping day file", "path", rel, "err", err)
		r.stats.Skipped = append(r.stats.Skipped, Skipped{Path: rel, Reason: err.Error()})
		return nil
	}
	if len(day.Entries) == 0 && len(day.Notes) == 0 {
		rec.Empty = true
		return r.retire(ctx, p)
	}
	fa := newFacts()
	fa.addDay(day)
	r.facts[f.Date] = fa
	return r.consolidate(ctx, p, rec.Digest, func() (*Summary, Input, error) {
		s := &Summary{Period: p}
		fa.fill(s)
		return s, Input{Level: date.LevelDay, Period: p.String(), Items: dayItems(day), WordLimit: WordLimit(date.LevelDay)}, nil
	})
}

// readDay reads a day file, refusing one over dayfiles.MaxFileSize; errors
// name it by rel.
func readDay(path, rel string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := dayfiles.CheckSize(rel, fi.Size()); err != nil {
		return nil, err
	}
	data := make([]byte, fi.Size())
	n, err := io.ReadFull(f, data)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) { // a file that shrank since Stat is read as it is
		return nil, fmt.Errorf("reading %s: %w", rel, err)
	}
	return data[:n], nil
}

// children returns the summaries recorded one level below p, oldest first.
func (r *run) children(p Period) []child {
	var out []child
	want := date.LevelDay
	if p.Level == date.LevelYear {
		want = date.LevelMonth
	}
	prefix := string(want) + ":" + p.String() + "-"
	for id, rec := range r.st.Summaries {
		if !strings.HasPrefix(id, prefix) {
			continue
		}
		cp, err := periodOfID(id)
		if err != nil {
			continue
		}
		out = append(out, child{p: cp, rec: rec})
	}
	if r.dry { // a child due in this plan but never written is an input too
		for id := range r.written {
			if strings.HasPrefix(id, prefix) && r.st.Summaries[id] == nil {
				if cp, err := periodOfID(id); err == nil {
					out = append(out, child{p: cp, rec: &sumRecord{}})
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b child) int { return comparePeriods(a.p, b.p) })
	for i := range out {
		out[i].hash = r.currentHash(out[i].p)
	}
	return out
}

// parent brings a month's or a year's summary up to date.
func (r *run) parent(ctx context.Context, p Period) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	defer r.step()
	kids := r.children(p)
	if len(kids) == 0 {
		return r.retire(ctx, p)
	}
	digest := parentDigest(p.Level, kids)
	if r.dry {
		for _, k := range kids {
			if r.written[k.p.ID()] {
				digest = "" // a child is due: so is p
			}
		}
	}
	return r.consolidate(ctx, p, digest, func() (*Summary, Input, error) { return r.buildParent(p, kids) })
}

// currentHash returns the hash of p's summary file as it is now, reading it
// only when its size or time differ from the state's; "" when it is missing.
func (r *run) currentHash(p Period) string {
	id := p.ID()
	if h, ok := r.hashes[id]; ok {
		return h
	}
	h := ""
	rec := r.st.Summaries[id]
	fi, err := os.Stat(p.Path(r.c.Root))
	switch {
	case err != nil:
	case rec.matches(fi):
		h = rec.Hash
	default:
		if data, err := os.ReadFile(p.Path(r.c.Root)); err == nil {
			h = hashBytes(data)
		}
	}
	r.hashes[id] = h
	return h
}

// errNoInput tells consolidate that a build found nothing to summarise.
var errNoInput = errors.New("no input")
