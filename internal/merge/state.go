package merge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/internal/util/atomicfile"
	"github.com/daybook/daybook/internal/util/date"
)

// StateDir is the folder under the data dir that holds the bases, one
// file per day, "state/merge/2026-11-24.json". It is not under days/, so
// sync tools and git that carry days/ do not carry it.
const StateDir = "state/merge"

// dayState is what daybook last knew of one day file.
type dayState struct {
	Hash     string     `json:"hash"` // SHA-256 of the content daybook last wrote or merged
	Next     int64      `json:"next"` // the number of the next append
	Appended []appended `json:"appended,omitempty"`
	Restored []restored `json:"restored,omitempty"` // appended again after a stale save, for status
}

// appended is an entry daybook appended, acknowledged to its writer.
type appended struct {
	ID    string    `json:"id"`
	Batch int64     `json:"batch"` // the append it came in; later appends have higher numbers
	At    time.Time `json:"at"`    // when it was acknowledged
	Lines string    `json:"lines"` // as written, to write again
	Again bool      `json:"again,omitempty"`
	// For an entry appended again: the length and hash of the stale copy
	// it was appended to. A later save that still starts with that copy
	// was made from it, before the entry came back.
	StaleLen  int    `json:"stale_len,omitempty"`
	StaleHash string `json:"stale_hash,omitempty"`
}

// restored is an entry appended again, kept for status for a while.
type restored struct {
	ID   string    `json:"id"`
	At   time.Time `json:"at"`
	Text string    `json:"text"`
}

// lockDay takes the day's merge lock, on state/merge/DAY.lock: every
// change of the day's base, and every append, is made under it. The day
// file's own lock is not enough: an editor that replaces the file between
// two lockers' opens gives each a different file to lock.
func lockDay(root string, d date.Date) (func(), error) {
	return dayfiles.LockPath(filepath.Join(root, filepath.FromSlash(StateDir), d.String()+".lock"))
}

func statePath(root string, d date.Date) string {
	return filepath.Join(root, filepath.FromSlash(StateDir), d.String()+".json")
}

// load reads d's state; a missing file is an empty state, a broken one is
// an error (the caller then merges without a base: it keeps everything).
func load(root string, d date.Date) (*dayState, error) {
	data, err := os.ReadFile(statePath(root, d))
	if errors.Is(err, os.ErrNotExist) {
		return &dayState{}, nil
	}
	if err != nil {
		return &dayState{}, fmt.Errorf("reading the merge base of %s: %w", d, err)
	}
	var st dayState
	if err := json.Unmarshal(data, &st); err != nil {
		return &dayState{}, fmt.Errorf("reading the merge base %s: %w", statePath(root, d), err)
	}
	return &st, nil
}

// save writes d's state, or removes it when it holds nothing to keep.
func (st *dayState) save(root string, d date.Date) error {
	p := statePath(root, d)
	if len(st.Appended) == 0 && len(st.Restored) == 0 {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("removing the merge base: %w", err)
		}
		return nil
	}
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	// Replaced by rename, not synced: the base must survive a restart, and
	// does; after a power cut it may miss the last appends, which are then
	// taken as a person's (no entry is removed for that). A sync here made
	// each remember 4 times slower (BenchmarkAppend).
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("writing the merge base: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(p), atomicfile.TempPattern)
	if err != nil {
		return fmt.Errorf("writing the merge base: %w", err)
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("writing the merge base: %w", err)
	}
	if err := os.Rename(f.Name(), p); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("writing the merge base: %w", err)
	}
	return nil
}

// prune drops what was acknowledged or restored before cutoff.
func (st *dayState) prune(cutoff time.Time) {
	k := 0
	for _, a := range st.Appended {
		if a.At.After(cutoff) {
			st.Appended[k] = a
			k++
		}
	}
	st.Appended = st.Appended[:k]
	k = 0
	for _, r := range st.Restored {
		if r.At.After(cutoff) {
			st.Restored[k] = r
			k++
		}
	}
	st.Restored = st.Restored[:k]
}

// stateDays lists the days that have a state file, oldest first.
func stateDays(root string) []date.Date {
	ents, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(StateDir)))
	if err != nil {
		return nil
	}
	var out []date.Date
	for _, e := range ents {
		n := e.Name()
		if filepath.Ext(n) != ".json" {
			continue
		}
		if d, err := date.Parse(n[:len(n)-len(".json")]); err == nil {
			out = append(out, d)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Before(out[j]) })
	return out
}

func hash(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
