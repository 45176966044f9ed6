// Package usage counts how often each summary and entry is returned by
// recall or expand: the retrieval frequency in the context's utility score.
// Counts live in DATA/state/usage.json. Record only adds to memory; the
// counts reach the file in batches (after FlushAfter records or Interval,
// whichever comes first) and on Flush and Close. A flush takes a lock on the
// file, reads what other processes wrote, adds this process's new counts and
// replaces the file atomically, so a CLI and a daemon may count at once and
// no count is lost or counted twice. Nothing here deletes or edits memory:
// the counts only order what the context leaves out.
package usage

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/daybook/daybook/internal/util/atomicfile"
	"github.com/daybook/daybook/internal/util/filelock"
	"github.com/daybook/daybook/internal/util/logkey"
)

// File is where the counts live, relative to the data dir.
const File = "state/usage.json"

// Defaults for Options.
const (
	DefaultInterval   = 5 * time.Second
	DefaultFlushAfter = 1000
)

const fileVersion = 1

// Options tune a Store.
type Options struct {
	// Interval is the longest time a record waits in memory before a flush;
	// negative disables the timer (records then reach the file on FlushAfter,
	// Flush and Close only); 0 is DefaultInterval.
	Interval time.Duration
	// FlushAfter flushes as soon as this many records wait; 0 is
	// DefaultFlushAfter, 1 flushes on every Record.
	FlushAfter int
	Log        *slog.Logger
	Now        func() time.Time // the clock for last-used times; time.Now if nil
}

// Count is how often an id was returned and when last.
type Count struct {
	N    int       `json:"n"`
	Last time.Time `json:"last"`
}

// fileData is the layout of usage.json.
type fileData struct {
	Version int              `json:"version"`
	Counts  map[string]Count `json:"counts"`
}

// Store counts uses. Its methods are safe for concurrent use.
type Store struct {
	path string
	opts Options
	log  *slog.Logger

	mu      sync.Mutex
	flushMu sync.Mutex       // one flush at a time in this process
	base    map[string]Count // the file as last read or written
	pending map[string]Count // recorded since, not yet in the file
	// flushing is the batch a Flush is writing: in neither base nor
	// pending until the file is written, yet counted by Counts and Get.
	flushing map[string]Count
	waiting  int // records in pending
	timer    *time.Timer
	closed   bool
}

// Open returns the store of the data dir root, reading its file; a missing
// file is no counts. A file that will not decode is an error naming it: it is
// left as it is rather than overwritten.
func Open(root string, opts Options) (*Store, error) {
	if opts.Interval == 0 {
		opts.Interval = DefaultInterval
	}
	if opts.FlushAfter <= 0 {
		opts.FlushAfter = DefaultFlushAfter
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	s := &Store{path: filepath.Join(root, filepath.FromSlash(File)), opts: opts,
		log: opts.Log.With(logkey.System, "usage"), pending: map[string]Count{}}
	base, err := readFile(s.path)
	if err != nil {
		return nil, err
	}
	s.base = base
	return s, nil
}

// Path returns the file the store writes.
func (s *Store) Path() string { return s.path }

// Record counts one use of each id; an id given twice counts twice. Empty
// ids are ignored.
func (s *Store) Record(ids ...string) {
	now := s.opts.Now().UTC().Truncate(time.Second)
	s.mu.Lock()
	for _, id := range ids {
		if id == "" {
			continue
		}
		c := s.pending[id]
		c.N++
		c.Last = now
		s.pending[id] = c
		s.waiting++
	}
	full := s.waiting >= s.opts.FlushAfter
	if !full && s.waiting > 0 && s.timer == nil && s.opts.Interval > 0 && !s.closed {
		s.timer = time.AfterFunc(s.opts.Interval, s.flushFromTimer)
	}
	s.mu.Unlock()
	if full {
		if err := s.Flush(); err != nil {
			s.log.Warn("writing retrieval counts", "path", s.path, "err", err)
		}
	}
}

func (s *Store) flushFromTimer() {
	if err := s.Flush(); err != nil {
		s.log.Warn("writing retrieval counts", "path", s.path, "err", err)
	}
}

// Counts returns a copy of every count: the file's and this process's
// records not yet flushed.
func (s *Store) Counts() map[string]Count {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := maps.Clone(s.base)
	if out == nil {
		out = map[string]Count{}
	}
	for _, m := range []map[string]Count{s.flushing, s.pending} {
		for id, p := range m {
			out[id] = add(out[id], p)
		}
	}
	return out
}

// Get returns the count of one id.
func (s *Store) Get(id string) Count {
	s.mu.Lock()
	defer s.mu.Unlock()
	return add(add(s.base[id], s.flushing[id]), s.pending[id])
}

// Flush writes the waiting records to the file, merged with what other
// processes wrote since it was read. With nothing waiting it only rereads
// the file.
func (s *Store) Flush() error {
	s.flushMu.Lock()
	defer s.flushMu.Unlock()
	s.mu.Lock()
	batch := s.pending
	s.pending, s.flushing = map[string]Count{}, batch
	s.waiting = 0
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	s.mu.Unlock()

	merged, err := s.writeMerged(batch)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushing = nil
	if err != nil {
		// Put the batch back so that a later flush writes it.
		for id, p := range batch {
			s.pending[id] = add(s.pending[id], p)
			s.waiting += p.N
		}
		return err
	}
	s.base = merged
	return nil
}

// writeMerged locks the file, reads it, adds batch and replaces it.
func (s *Store) writeMerged(batch map[string]Count) (map[string]Count, error) {
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return nil, fmt.Errorf("creating the state folder: %w", err)
	}
	unlock, err := filelock.LockPath(s.path+".lock", 0o644)
	if err != nil {
		return nil, err
	}
	defer unlock()
	cur, err := readFile(s.path)
	if err != nil {
		return nil, err
	}
	if len(batch) == 0 {
		return cur, nil
	}
	for id, p := range batch {
		cur[id] = add(cur[id], p)
	}
	data, err := json.Marshal(fileData{Version: fileVersion, Counts: cur})
	if err != nil {
		return nil, fmt.Errorf("encoding retrieval counts: %w", err)
	}
	if err := atomicfile.Write(s.path, data, 0o600); err != nil {
		return nil, err
	}
	return cur, nil
}

// Close stops the timer and flushes. Records after Close still count and
// reach the file on the next Flush.
func (s *Store) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	return s.Flush()
}

func add(a, b Count) Count {
	a.N += b.N
	if b.Last.After(a.Last) {
		a.Last = b.Last
	}
	return a
}

// readFile reads usage.json; a missing or empty file is no counts.
func readFile(path string) (map[string]Count, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) || (err == nil && len(data) == 0) {
		return map[string]Count{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading retrieval counts: %w", err)
	}
	var fd fileData
	if err := json.Unmarshal(data, &fd); err != nil {
		return nil, fmt.Errorf("%s: not a retrieval counts file (remove it to start counting afresh): %w", path, err)
	}
	if fd.Version != fileVersion {
		return nil, fmt.Errorf("%s: version %d: this daybook reads version %d", path, fd.Version, fileVersion)
	}
	if fd.Counts == nil {
		fd.Counts = map[string]Count{}
	}
	return fd.Counts, nil
}
