package topics

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/util/atomicfile"
	"github.com/daybook/daybook/internal/util/logkey"
)

// CacheFile is the cache of each day file's topics, relative to the data dir.
const CacheFile = "state/topics.json"

// cacheVersion changes when the rules change, or what dayfiles.Parse counts
// as an entry (stats counts entries from this cache), which redoes every day.
const cacheVersion = 1

// Day is what one day file holds: its counts and its topics.
type Day struct {
	Date    date.Date
	Entries int
	Notes   int
	Topics  map[string]int // topic name → entries of the day that name it
	Bad     bool           // the file does not parse: counted as nothing
}

type dayRecord struct {
	Date    string         `json:"date"`
	Size    int64          `json:"size"`
	MTime   int64          `json:"mtime_ns"`
	Entries int            `json:"entries"`
	Notes   int            `json:"notes,omitempty"`
	Topics  map[string]int `json:"topics,omitempty"`
	Bad     bool           `json:"bad,omitempty"`
}

type cacheData struct {
	Version int         `json:"version"`
	Days    []dayRecord `json:"days"`
}

// Index is the topics of every day file.
type Index struct {
	days []Day // oldest first
}

// ScanStats says how much work Load did.
type ScanStats struct {
	Days   int // day files
	Parsed int // parsed because they were new or changed
	Bad    int // did not parse
}

// Load returns the topics of the day files under root, parsing only the
// files whose size or modification time differ from the cache, and writes
// the cache back when anything changed. A cache that will not decode is
// rebuilt, with a warning; a cache that cannot be written is a warning too:
// the answer does not depend on it.
func Load(ctx context.Context, root string, log *slog.Logger) (*Index, ScanStats, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log = log.With(logkey.System, "topics")
	files, err := dayfiles.List(root, date.Range{}, log)
	if err != nil {
		return nil, ScanStats{}, err
	}
	path := filepath.Join(root, filepath.FromSlash(CacheFile))
	old := readCache(path, log)
	byDate := make(map[string]dayRecord, len(old.Days))
	for _, r := range old.Days {
		byDate[r.Date] = r
	}
	st := ScanStats{Days: len(files)}
	out := cacheData{Version: cacheVersion, Days: make([]dayRecord, 0, len(files))}
	changed := len(old.Days) != len(files)
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, st, err
		}
		key := f.Date.String()
		r, ok := byDate[key]
		if !ok || r.Size != f.Size || r.MTime != f.ModTime.UnixNano() {
			r = scanDay(f, log)
			st.Parsed++
			changed = true
		}
		if r.Bad {
			st.Bad++
		}
		out.Days = append(out.Days, r)
	}
	if changed {
		if err := writeCache(path, out); err != nil {
			log.Warn("writing the topics cache", "path", path, "err", err)
		}
	}
	ix := &Index{days: make([]Day, len(out.Days))}
	for i, r := range out.Days {
		d, _ := date.Parse(r.Date)
		ix.days[i] = Day{Date: d, Entries: r.Entries, Notes: r.Notes, Topics: r.Topics, Bad: r.Bad}
	}
	return ix, st, nil
}

// scanDay parses one day file into its record.
func scanDay(f dayfiles.File, log *slog.Logger) dayRecord {
	r := dayRecord{Date: f.Date.String(), Size: f.Size, MTime: f.ModTime.UnixNano()}
	day, err := dayfiles.ParseFile(f.Path, f.Date)
	if err != nil {
		log.Debug("skipping a day file that does not parse", "path", f.Path, "err", err)
		r.Bad = true
		var pe *fs.PathError
		if errors.As(err, &pe) {
			// Could not be read (permissions, a file replaced under us):
			// no modification time will mark it changed when it can be, so
			// the record is not kept as it is and the next Load tries again.
			r.MTime = 0
		}
		return r
	}
	r.Entries, r.Notes = len(day.Entries), len(day.Notes)
	for _, e := range day.Entries {
		for _, t := range EntryTopics(e) {
			if r.Topics == nil {
				r.Topics = map[string]int{}
			}
			r.Topics[t]++
		}
	}
	return r
}

func readCache(path string, log *slog.Logger) cacheData {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return cacheData{}
	}
	var c cacheData
	if err == nil {
		err = json.Unmarshal(data, &c)
	}
	if err == nil && c.Version != cacheVersion {
		err = fmt.Errorf("version %d, want %d", c.Version, cacheVersion)
	}
	if err != nil {
		log.Warn("rebuilding the topics cache", "path", path, "err", err)
		return cacheData{}
	}
	return c
}

func writeCache(path string, c cacheData) error {
	data, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("encoding the topics cache: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("creating the state folder: %w", err)
	}
	return atomicfile.Write(path, data, 0o600)
}

// Days returns every day file's counts, oldest first. The caller must not
// change them.
func (ix *Index) Days() []Day { return ix.days }

// Topics returns every topic, most entries first (then by name); the base
// topics are always there, with zero counts when nothing names them.
func (ix *Index) Topics() []Topic {
	m := map[string]*Topic{}
	for _, b := range Bases {
		m[b] = &Topic{Name: b, Kind: KindBase}
	}
	for _, d := range ix.days {
		for name, n := range d.Topics {
			t := m[name]
			if t == nil {
				t = &Topic{Name: name, Kind: KindOf(name)}
				m[name] = t
			}
			if t.Count == 0 {
				t.First = d.Date
			}
			t.Count += n
			t.Last = d.Date
		}
	}
	out := make([]Topic, 0, len(m))
	for _, t := range m {
		out = append(out, *t)
	}
	slices.SortFunc(out, func(a, b Topic) int {
		if c := cmp.Compare(b.Count, a.Count); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return out
}

// Lookup finds a topic by name: exactly, else without regard to case, else
// a tag given without its '#'. ok is false when no entry names it (the base
// topics are always found).
func (ix *Index) Lookup(name string) (Topic, bool) {
	all := ix.Topics()
	for _, pass := range []func(string) bool{
		func(n string) bool { return n == name },
		func(n string) bool { return strings.EqualFold(n, name) },
		func(n string) bool { return strings.EqualFold(n, "#"+name) },
	} {
		for _, t := range all {
			if pass(t.Name) {
				return t, true
			}
		}
	}
	return Topic{}, false
}

// DaysOf returns the days whose entries name topic, oldest first.
func (ix *Index) DaysOf(topic string) []date.Date {
	var out []date.Date
	for _, d := range ix.days {
		if d.Topics[topic] > 0 {
			out = append(out, d.Date)
		}
	}
	return out
}
