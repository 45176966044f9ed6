package app

import (
	"bufio"
	"context"
	"errors"
	"io"
	"io/fs"
	"slices"
	"strings"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// ImportPlan is what an import would do: the counts of Import, without
// writing, and the first and last day it would write to.
type ImportPlan struct {
	daybook.ImportResponse
	First, Last date.Date // zero when nothing would be added
}

// PlanImport reads JSON lines of daybook.ImportLine from r as Import does and
// says what Import would add, leave out as already there, and reject, and
// writes nothing: the dry run of an import. It reads the day files only,
// so it may run beside a daemon. opt.Strict changes nothing in a plan.
func (wr *Writer) PlanImport(ctx context.Context, r io.Reader, opt daybook.ImportOptions) (ImportPlan, error) {
	var plan ImportPlan
	window := wr.cfg.Window()
	if opt.AnyDate {
		window = date.AnyDate()
	}
	byDay := map[date.Date][]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxImportLine)
	for n := 1; sc.Scan(); n++ {
		if err := ctx.Err(); err != nil {
			return plan, err
		}
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		e, err := wr.parseImportLine(line, window, opt.Flatten)
		if err != nil {
			plan.Rejected = append(plan.Rejected, daybook.ImportError{Line: n, Error: err.Error()})
			continue
		}
		d := date.Of(e.At.In(wr.Loc()))
		byDay[d] = append(byDay[d], e.Format(wr.Loc()))
	}
	if err := sc.Err(); err != nil {
		return plan, userErrf("reading import: %v", err)
	}
	days := make([]date.Date, 0, len(byDay))
	for d := range byDay {
		days = append(days, d)
	}
	slices.SortFunc(days, func(x, y date.Date) int { return x.Compare(y) })
	for _, d := range days {
		added, err := wr.planDay(d, byDay[d])
		if err != nil {
			return plan, err
		}
		plan.Added += added
		plan.Skipped += len(byDay[d]) - added
		if added > 0 {
			plan.Days++
			if plan.First.IsZero() {
				plan.First = d
			}
			plan.Last = d
		}
	}
	return plan, nil
}

// planDay returns how many of the formatted entries d's file does not hold,
// counted as dayfiles.Locked.Append counts them: by entry id (day, time to the
// minute, text), each entry of the file answering for one.
func (wr *Writer) planDay(d date.Date, entries []string) (int, error) {
	have := map[string]int{}
	path := dayfiles.Path(wr.dir, d)
	day, err := dayfiles.ParseFile(path, d)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return 0, err
	default:
		for _, e := range day.Entries {
			have[dayfiles.EntryID(e.ID).Base()]++
		}
	}
	want, err := dayfiles.Parse(path, d, []byte(strings.Join(entries, "")))
	if err != nil {
		return 0, err
	}
	added := 0
	for _, e := range want.Entries {
		if b := dayfiles.EntryID(e.ID).Base(); have[b] > 0 {
			have[b]--
			continue
		}
		added++
	}
	return added, nil
}
