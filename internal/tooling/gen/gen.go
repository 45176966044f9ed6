package gen

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// MaxYears is the longest corpus Write generates.
const MaxYears = 50

// FactsFile is the name of the planted facts file under the data dir.
const FactsFile = "facts.jsonl"

// Options say what to generate. The same Options give identical bytes.
type Options struct {
	Years int       // how many years of days, ending at End; 1 to MaxYears
	Seed  uint64    // seeds every random choice
	End   date.Date // the last day; required (the CLI passes yesterday)

	// Updates is how many facts that change to plant (0 to MaxUpdates),
	// with their questions in UpdatesFile; 0 leaves the corpus as it was
	// before updates existed.
	Updates int

	// JSONL, when set, also receives every entry as an import line
	// (daybook.ImportLine), in the order of the day files.
	JSONL io.Writer
}

// Stats says what Write wrote.
type Stats struct {
	From, To date.Date // the generated range, vacations included
	Days     int       // day files written
	Entries  int
	Lines    int
	Bytes    int64 // of the day files
	Facts    int   // lines of facts.jsonl
	Updates  int   // lines of updates.jsonl
}

// Validate checks o and names what is wrong.
func (o Options) Validate() error {
	switch {
	case o.Years < 1 || o.Years > MaxYears:
		return fmt.Errorf("years is %d: want 1 to %d", o.Years, MaxYears)
	case o.Updates < 0 || o.Updates > MaxUpdates():
		return fmt.Errorf("updates is %d: want 0 to %d", o.Updates, MaxUpdates())
	case o.End.IsZero():
		return errors.New("no end date")
	case o.End.Year-o.Years < 1:
		return fmt.Errorf("end date %s is too early for %d years", o.End, o.Years)
	}
	return nil
}

// Write generates the corpus under the data dir dir: dir/days/YYYY/MM/DD.md
// and dir/facts.jsonl. It refuses a dir that already holds day files or a
// facts file, so nothing already written is lost; it creates dir if needed.
func Write(dir string, opts Options) (Stats, error) {
	if err := opts.Validate(); err != nil {
		return Stats{}, err
	}
	if err := checkEmpty(dir); err != nil {
		return Stats{}, err
	}
	if err := makePrivateDir(dir); err != nil {
		return Stats{}, err
	}
	p := newPlan(opts)
	st := Stats{From: p.from, To: p.to, Facts: len(p.facts), Updates: len(p.updates)}
	var jw *bufio.Writer
	if opts.JSONL != nil {
		jw = bufio.NewWriterSize(opts.JSONL, 256<<10)
	}
	// Days are composed on one goroutine while this one writes them.
	days := make(chan rendered, 16)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.produce(jw != nil, days, stop)
	}()
	defer func() {
		close(stop)
		<-done
	}()
	made := map[string]bool{} // folders already created
	for day := range days {
		path := dayfiles.Path(dir, day.date)
		if folder := filepath.Dir(path); !made[folder] {
			if err := os.MkdirAll(folder, 0o755); err != nil {
				return st, fmt.Errorf("creating folder %s: %w", folder, err)
			}
			made[folder] = true
		}
		if err := writeNew(path, day.file); err != nil {
			return st, err
		}
		st.Days++
		st.Entries += day.entries
		st.Lines += day.lines
		st.Bytes += int64(len(day.file))
		if jw != nil {
			if _, err := jw.Write(day.jsonl); err != nil {
				return st, fmt.Errorf("writing import lines: %w", err)
			}
		}
	}
	if jw != nil {
		if err := jw.Flush(); err != nil {
			return st, fmt.Errorf("writing import lines: %w", err)
		}
	}
	if err := writeFacts(filepath.Join(dir, FactsFile), p.facts); err != nil {
		return st, err
	}
	if opts.Updates > 0 {
		if err := writeUpdates(filepath.Join(dir, UpdatesFile), p.updates); err != nil {
			return st, err
		}
	}
	return st, nil
}

// makePrivateDir creates dir readable by its owner only, like every data
// dir daybook makes (doctor warns about one others can read); an existing
// dir is left as it is.
func makePrivateDir(dir string) error {
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return fmt.Errorf("creating folder %s: %w", filepath.Dir(dir), err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("creating the data dir: %w", err)
	}
	return nil
}

// rendered is one day ready to write.
type rendered struct {
	date           date.Date
	file, jsonl    []byte
	entries, lines int
}

// produce composes the days with files, in order, and sends them to out
// until stop is closed; it closes out when done.
func (p *plan) produce(withJSONL bool, out chan<- rendered, stop <-chan struct{}) {
	defer close(out)
	for i := range p.days {
		if !p.days[i].written {
			continue
		}
		d := p.days[i].date
		day := p.compose(i)
		r := rendered{date: d, file: day.render(nil, dayfiles.Title(d)), entries: day.entries, lines: day.lines}
		if withJSONL {
			r.jsonl = day.importLines()
		}
		select {
		case out <- r:
		case <-stop:
			return
		}
	}
}

// importLines returns the day's entries as JSON lines of daybook.ImportLine.
func (d *day) importLines() []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, e := range d.blocks {
		if e.note != nil {
			continue
		}
		line := daybook.ImportLine{At: e.entry.At.Format("2006-01-02T15:04:05"), Text: e.entry.Text, Kind: string(e.entry.Kind), Tags: e.entry.Tags}
		if err := enc.Encode(line); err != nil {
			panic(err) // strings and a slice of strings always encode
		}
	}
	return b.Bytes()
}

// checkEmpty refuses a data dir that already holds day files or facts.
func checkEmpty(dir string) error {
	if _, err := os.Lstat(filepath.Join(dir, FactsFile)); err == nil {
		return fmt.Errorf("%s already exists: gen writes only into a fresh data dir", filepath.Join(dir, FactsFile))
	}
	days := filepath.Join(dir, dayfiles.DaysDir)
	f, err := os.Open(days)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("checking %s: %w", days, err)
	}
	defer f.Close()
	names, err := f.Readdirnames(1)
	if len(names) > 0 {
		return fmt.Errorf("%s is not empty: gen writes only into a fresh data dir", days)
	}
	if err != nil && err != io.EOF {
		return fmt.Errorf("checking %s: %w", days, err)
	}
	return nil
}

// writeNew creates path, which must not exist, with data. Generated files
// are not synced: the corpus is cheap to write again.
func writeNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("creating %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// localTime is the at of an import line: local time in the configured zone,
// so the entry lands on the same day and HH:MM in any zone.
func localTime(d date.Date, minute int) time.Time {
	return d.At(minute/60, minute%60, time.UTC)
}
