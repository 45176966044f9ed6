package consolidate

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/daybook/daybook/internal/util/atomicfile"
)

// StateFile is where consolidation records what it did, under summaries/.
const StateFile = ".state.json"

const stateVersion = 1

// state is what was consolidated: each day file's size, modification time
// and digest as last read, and each summary's input digest and the hash,
// size and modification time of the file as written. A no-change run
// compares the day files' size and time against it and reads nothing else.
// Losing it costs one reading of every file, not a rewrite: the front matter
// of each summary carries its digest and content hash.
type state struct {
	Version   int                   `json:"version"`
	Days      []dayRecord           `json:"days"`      // sorted by date
	Summaries map[string]*sumRecord `json:"summaries"` // by period id: day:2026-11-22
}

type dayRecord struct {
	Date    string `json:"date"` // 2026-11-22
	Size    int64  `json:"size"`
	MTime   int64  `json:"mtime_ns"`
	Digest  string `json:"digest"`
	Empty   bool   `json:"empty,omitempty"`   // no entries and no notes: no summary
	Skipped string `json:"skipped,omitempty"` // why it could not be consolidated
}

type sumRecord struct {
	Digest string `json:"digest"` // of its inputs when written or kept
	Hash   string `json:"hash"`   // of the whole file as written or kept
	Size   int64  `json:"size"`
	MTime  int64  `json:"mtime_ns"`
	Kept   bool   `json:"kept,omitempty"` // a person's edit, kept in place
}

func (r *sumRecord) matches(fi os.FileInfo) bool {
	return r != nil && fi.Size() == r.Size && fi.ModTime().UnixNano() == r.MTime
}

func statePath(root string) string { return filepath.Join(root, SummariesDir, StateFile) }

// loadState reads the state file; a missing one is empty, and so is one that
// will not decode, with a warning: the summaries' front matter rebuilds it.
func loadState(root string, log *slog.Logger) *state {
	st := &state{Version: stateVersion, Summaries: map[string]*sumRecord{}}
	path := statePath(root)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return st
	}
	var got state
	if err == nil {
		err = json.Unmarshal(data, &got)
	}
	if err == nil && got.Version != stateVersion {
		err = fmt.Errorf("version %d, want %d", got.Version, stateVersion)
	}
	if err != nil {
		log.Warn("ignoring consolidation state; summaries are checked against their front matter", "path", path, "err", err)
		return st
	}
	if got.Summaries == nil {
		got.Summaries = map[string]*sumRecord{}
	}
	return &got
}

func (st *state) save(root string) error {
	data, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("encoding consolidation state: %w", err)
	}
	if err := atomicfile.Write(statePath(root), data, 0o644); err != nil {
		return fmt.Errorf("saving consolidation state: %w", err)
	}
	return nil
}
