package app

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/util/logkey"
)

// importBatch is how many entries are written per AppendMany call: one locked
// write per day within a batch.
const importBatch = 5000

// importWriters is how many day files an import appends to at once. Each
// append ends in an fsync, whose wait dominates an import of many days
// (3,650 daily notes: 24 s one at a time on a 2-core VM); disks take several
// at once. Each day file still has one writer, under its lock.
const importWriters = 8

// maxImportLine is the longest JSON line an import accepts.
const maxImportLine = 1 << 20

// Import bulk-loads JSON lines of daybook.ImportLine from r. Bad lines are
// rejected with their line numbers while good ones are kept; with Strict,
// any bad line rejects the whole input before anything is written. An entry
// its day file holds already (same time and text) is skipped, so importing
// a file again adds only what is new in it.
// With AnyDate, dates outside the configured window are taken; with
// Flatten, a line whose markdown would end its entry early is written as
// one paragraph.
func (wr *Writer) Import(ctx context.Context, r io.Reader, opt daybook.ImportOptions) (daybook.ImportResponse, error) {
	strict := opt.Strict
	window := wr.cfg.Window()
	if opt.AnyDate {
		window = date.AnyDate()
	}
	var resp daybook.ImportResponse
	ensurePrivateDir(wr.dir, wr.log)
	wr.zone.pin()
	var batch []dayfiles.NewEntry
	days := map[date.Date]bool{}
	// ours[g] counts the entries the earlier batches went through for the
	// days of writer g; a day always goes to the same writer.
	ours := make([]map[string]int, importWriters)
	for g := range ours {
		ours[g] = map[string]int{}
	}
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		start := time.Now()
		ws, err := wr.appendParallel(batch, ours)
		wrote := time.Since(start)
		var changed []date.Date
		for _, w := range ws {
			if w.Skipped {
				resp.Skipped++
			}
			if w.ID == "" {
				continue
			}
			resp.Added++
			if !days[w.Date] {
				days[w.Date] = true
				changed = append(changed, w.Date)
			}
		}
		start = time.Now()
		wr.changes.afterWrite(ctx, changed) // once a batch: the index catches up on all its days at once
		wr.log.Debug("imported a batch", logkey.System, "import", "entries", len(batch), "days", len(changed),
			"wrote", wrote.Round(time.Millisecond).String(), "after", time.Since(start).Round(time.Millisecond).String())
		batch = batch[:0]
		return err
	}
	var all []dayfiles.NewEntry // strict: held until the whole input is checked
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxImportLine)
	n := 0
	for sc.Scan() {
		n++
		if err := ctx.Err(); err != nil {
			return resp, err
		}
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		e, err := wr.parseImportLine(line, window, opt.Flatten)
		if err != nil {
			resp.Rejected = append(resp.Rejected, daybook.ImportError{Line: n, Error: err.Error()})
			continue
		}
		if strict {
			all = append(all, e)
			continue
		}
		if batch = append(batch, e); len(batch) >= importBatch {
			if err := flush(); err != nil {
				return resp, err
			}
		}
	}
	if err := sc.Err(); err != nil {
		// Keep what was good before the bad line, unless strict.
		if !strict {
			if ferr := flush(); ferr != nil {
				return resp, ferr
			}
		}
		resp.Days = len(days)
		if strict {
			return resp, badInputf("strict", "reading import line %d: %v; strict: nothing imported", n+1, err)
		}
		return resp, badInputf("", "reading import line %d: %v (the %d good entries before it were imported)", n+1, err, resp.Added)
	}
	if strict {
		if len(resp.Rejected) > 0 {
			return resp, badInputf("strict", "strict: %d bad lines, nothing imported (first: line %d: %s)",
				len(resp.Rejected), resp.Rejected[0].Line, resp.Rejected[0].Error)
		}
		batch = all
	}
	err := flush()
	resp.Days = len(days)
	return resp, err
}

func (wr *Writer) parseImportLine(line string, w date.Window, flatten bool) (dayfiles.NewEntry, error) {
	var in daybook.ImportLine
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return dayfiles.NewEntry{}, fmt.Errorf("bad JSON: %v", err)
	}
	if in.At == "" {
		return dayfiles.NewEntry{}, fmt.Errorf(`missing "at"`)
	}
	e, err := wr.newEntryIn(in.Text, in.Kind, in.Tags, in.At, w)
	if err != nil && flatten {
		if one := strings.Join(strings.Fields(in.Text), " "); one != in.Text {
			if f, ferr := wr.newEntryIn(one, in.Kind, in.Tags, in.At, w); ferr == nil {
				return f, nil
			}
		}
	}
	return e, err
}

// appendParallel appends batch as an import does (dayfiles.Locked.Append
// with ours), with the days split over importWriters writers; ours holds
// one map per writer. The result is in the order of batch, and the error
// is the first writer's that failed.
func (wr *Writer) appendParallel(batch []dayfiles.NewEntry, ours []map[string]int) ([]dayfiles.Written, error) {
	loc := wr.Loc()
	groups := make([][]dayfiles.NewEntry, len(ours))
	index := make([][]int, len(ours))
	for i, e := range batch {
		d := date.Of(e.At.In(loc))
		g := (d.Year*372 + int(d.Month)*31 + d.Day) % len(ours)
		groups[g] = append(groups[g], e)
		index[g] = append(index[g], i)
	}
	out := make([]dayfiles.Written, len(batch))
	errs := make([]error, len(ours))
	var wg sync.WaitGroup
	for g := range groups {
		if len(groups[g]) == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Through the merge keeper, as every append: the merge base
			// of each day knows what the import added.
			ws, err := wr.keep.Append(groups[g], ours[g])
			for k, w := range ws {
				out[index[g][k]] = w
			}
			errs[g] = err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return out, err
		}
	}
	return out, nil
}
