package app

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/daybook/daybook/api"
	"github.com/daybook/daybook/date"
	"github.com/daybook/daybook/dayfiles"
)

// importBatch is how many entries are written per AppendMany call: one locked
// write per day within a batch.
const importBatch = 5000

// maxImportLine is the longest JSON line an import accepts.
const maxImportLine = 1 << 20

// Import bulk-loads JSON lines of api.ImportLine from r. Bad lines are
// rejected with their line numbers while good ones are kept; with strict,
// any bad line rejects the whole input before anything is written. An entry
// its day file holds already (same time and text) is skipped, so importing
// a file again adds only what is new in it.
func (a *App) Import(ctx context.Context, r io.Reader, strict bool) (api.ImportResponse, error) {
	var resp api.ImportResponse
	ensurePrivateDir(a.Dir, a.Log)
	a.pinZone()
	var batch []dayfiles.NewEntry
	days := map[date.Date]bool{}
	ours := map[string]int{} // the entries the earlier batches went through
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		ws, err := a.keep.Append(batch, ours)
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
		a.afterWrite(ctx, changed)
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
		e, err := a.parseImportLine(line)
		if err != nil {
			resp.Rejected = append(resp.Rejected, api.ImportError{Line: n, Error: err.Error()})
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
			return resp, userErrf("reading import line %d: %v; --strict: nothing imported", n+1, err)
		}
		return resp, userErrf("reading import line %d: %v (the %d good entries before it were imported)", n+1, err, resp.Added)
	}
	if strict {
		if len(resp.Rejected) > 0 {
			return resp, userErrf("--strict: %d bad lines, nothing imported (first: line %d: %s)",
				len(resp.Rejected), resp.Rejected[0].Line, resp.Rejected[0].Error)
		}
		batch = all
	}
	err := flush()
	resp.Days = len(days)
	return resp, err
}

func (a *App) parseImportLine(line string) (dayfiles.NewEntry, error) {
	var in api.ImportLine
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return dayfiles.NewEntry{}, fmt.Errorf("bad JSON: %v", err)
	}
	if in.At == "" {
		return dayfiles.NewEntry{}, fmt.Errorf(`missing "at"`)
	}
	return a.newEntry(in.Text, in.Kind, in.Tags, in.At)
}
