package index

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/daybook/daybook/internal/util/logkey"
)

// Format is the version of the index layout. An index of an earlier format
// is emptied at open, with a log line, and the next Sync rebuilds it; one
// of a later format (a newer daybook's) is moved aside and rebuilt.
// Format 3 dropped the term vectors and the unused keyword fields; format
// 4 keeps no copy of a day file's text (located.go); format 5 leaves the
// automatic tags (#claude-code, #session-…: dayfiles.AutoTag) out of the
// words it indexes and embeds; format 6 indexes the words of what the loop
// wrote in a field of their own (captured.go).
const Format = 6

// ErrBusy says another process (normally the daemon) holds the index.
var ErrBusy = errors.New("index is busy: another daybook process (the daemon?) has it open")

// Options configure Open.
type Options struct {
	Embedder Embedder
	// LockTimeout is how long Open waits for another process to let go of
	// the index before it returns ErrBusy; 0 waits 100ms.
	LockTimeout time.Duration
	Log         *slog.Logger
	Now         func() time.Time
	// Root is the data dir the documents' paths are relative to: the text
	// of a day file's entries is read back from there. Empty: the parent
	// of the index folder (DATA/index).
	Root string
	// Progress, if set, is told how far a full build (the first Sync of an
	// empty index: a new one, a reindex, an earlier format's rebuild) is,
	// in source files, after each slice of them.
	Progress func(done, total int)
}

// meta is index/meta.json.
type meta struct {
	Format   int    `json:"format"`
	Embedder string `json:"embedder"`
	Dim      int    `json:"dim"` // 0: the embedder has not answered yet
	// Pending counts documents waiting for a vector: the embedder was
	// unavailable when they were indexed. Unscanned says there may be more,
	// from an earlier run, that FillVectors has not looked for yet.
	Pending   int  `json:"pending"`
	Unscanned bool `json:"unscanned,omitempty"`
}

// Index is the open index of one data dir: its text index (TextIndex:
// bleve and the manifest) and its vector store (VectorStore: the vectors,
// their log, the documents waiting for one), each with its own state and
// lock, and what spans the two: the writes (Sync, SyncPaths, FillVectors),
// the open lock, Close. Its methods, and those of its parts, are safe for
// concurrent use.
type Index struct {
	*TextIndex
	*VectorStore

	dir      string
	log      *slog.Logger
	progress func(done, total int) // Options.Progress

	// writeMu lets one writer at a time plan, embed and write; the write
	// itself holds both parts' locks (lockWrite), the vector store's first.
	writeMu sync.Mutex

	lock *os.File // the open lock (openlock.go), held until Close ends
}

const (
	bleveDir    = "bleve"
	metaName    = "meta.json"
	manifestKey = "daybook.manifest"
)

// Open opens the index in dir (DATA/index), creating it when missing. An
// index that will not open (corrupt, of another format) is moved aside to
// dir.broken-TIMESTAMP and a new empty one is made, with a log line; only
// the newest folder moved aside is kept (pruneAside). A
// changed embedder empties the manifest so that Sync re-embeds everything.
// It returns ErrBusy when another process holds the index. An error that
// does not prove the index unreadable (its files changed between two
// attempts: another process was writing them; a permission, a full disk,
// too many open files) is returned, and the index left as it is: the
// caller tries again on next use.
func Open(ctx context.Context, dir string, opts Options) (*Index, error) {
	opts, err := withDefaults(dir, opts)
	if err != nil {
		return nil, err
	}
	want, offErr, err := wanted(ctx, opts)
	if err != nil {
		return nil, err
	}
	lock, err := takeOpenLock(dir, opts.LockTimeout)
	if err != nil {
		return nil, err
	}
	x, err := openHolding(dir, opts, want, offErr, lock)
	if err != nil {
		lock.Close()
		return nil, err
	}
	return x, nil
}

// withDefaults fills in what opts leaves out.
func withDefaults(dir string, opts Options) (Options, error) {
	if opts.Embedder == nil {
		return opts, errors.New("opening index: no embedder")
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.LockTimeout <= 0 {
		opts.LockTimeout = 100 * time.Millisecond
	}
	if opts.Root == "" {
		opts.Root = filepath.Dir(dir)
	}
	return opts, nil
}

// wanted returns the meta the index should have: the dimension comes from
// a test vector; an embedder that is unavailable (Ollama down) leaves it to
// meta.json, or unknown (0) until it answers, and is returned as offErr:
// the text side opens either way.
func wanted(ctx context.Context, opts Options) (want meta, offErr error, err error) {
	want = meta{Format: Format, Embedder: opts.Embedder.Name()}
	probe, err := opts.Embedder.Embed(ctx, []string{"daybook"})
	switch {
	case errors.Is(err, ErrUnavailable):
		offErr = err
	case err != nil:
		return want, nil, fmt.Errorf("opening index: asking %s for a vector: %w", opts.Embedder.Name(), err)
	case len(probe) != 1 || len(probe[0]) == 0:
		return want, nil, fmt.Errorf("opening index: %s returned no vector", opts.Embedder.Name())
	default:
		want.Dim = len(probe[0])
	}
	return want, offErr, nil
}

// openHolding opens the index in dir, holding its open lock, which the
// Index it returns keeps; on an error the caller still holds it.
func openHolding(dir string, opts Options, want meta, offErr error, lock *os.File) (*Index, error) {
	log := opts.Log.With(logkey.System, "index")
	mk := func() *Index {
		x := newIndex(dir, opts.Embedder, log, opts.Now)
		x.root, x.progress = opts.Root, opts.Progress
		return x
	}
	x, broken, err := openSettled(mk, want, opts.LockTimeout)
	if err != nil && broken {
		aside := fmt.Sprintf("%s.broken-%s", dir, opts.Now().UTC().Format("20060102T150405"))
		log.Warn("index will not open; moving it aside and rebuilding", "dir", dir, "moved_to", aside, "err", err)
		if rerr := os.Rename(dir, aside); rerr != nil {
			return nil, fmt.Errorf("moving broken index aside: %w (it would not open: %v)", rerr, err)
		}
		for _, p := range pruneAside(dir, aside) {
			log.Info("removed an older broken index; the newest is kept", "dir", p, "kept", aside)
		}
		x = mk()
		if err = x.open(want, opts.LockTimeout); err != nil {
			err = fmt.Errorf("creating index: %w", err)
		}
	}
	if err != nil {
		return nil, err
	}
	x.lock = lock
	if offErr != nil {
		x.vectorsOff(offErr)
	}
	if n, err := x.bl.DocCount(); err == nil && n > uint64(x.vec.len()) {
		x.scan = true // documents without vectors: FillVectors finds and embeds them
	}
	return x, nil
}

// Rebuilds reports whether opening the index in dir will build it from
// the start: there is none yet, or it is of another format (an earlier
// daybook's, emptied at open; a later one's, moved aside). A caller shows
// the build's progress then (Options.Progress).
func Rebuilds(dir string) bool {
	data, err := os.ReadFile(filepath.Join(dir, metaName))
	if err != nil {
		return true
	}
	var m meta
	return json.Unmarshal(data, &m) != nil || m.Format != Format
}

func newIndex(dir string, emb Embedder, log *slog.Logger, now func() time.Time) *Index {
	return &Index{dir: dir, log: log,
		TextIndex: &TextIndex{dir: dir, log: log, counts: genCache[countKey, uint64]{most: maxCounts},
			longer: genCache[string, []string]{most: maxLongerCached}},
		VectorStore: &VectorStore{dir: dir, emb: emb, log: log, now: now, pending: map[string]vecMeta{}, pendingGroups: map[groupKey]int{}},
	}
}

// lockWrite takes both parts' write locks, the vector store's first: a
// write that changes both is seen whole by their readers. unlockWrite lets
// go of them.
func (x *Index) lockWrite() {
	x.VectorStore.lockWrite()
	x.TextIndex.lockWrite()
}

func (x *Index) unlockWrite() {
	x.TextIndex.unlockWrite()
	x.VectorStore.unlockWrite()
}

// open opens the index in x.dir as want says (embedder and dimension):
// the meta it finds, cleared when it is of an earlier format or another
// embedder, then bleve, then the vector store.
func (x *Index) open(want meta, timeout time.Duration) error {
	if err := os.MkdirAll(x.dir, 0o755); err != nil {
		return fmt.Errorf("creating index folder: %w", err)
	}
	have, err := x.readMeta(timeout)
	if err != nil {
		return err
	}
	if want.Dim == 0 && have.Embedder == want.Embedder {
		want.Dim = have.Dim // the embedder is unavailable: trust what it said before
	}
	adopt := have.Embedder != "" && have.Embedder == want.Embedder && have.Dim == 0 && want.Dim > 0
	if have.Embedder != "" && !adopt && (have.Embedder != want.Embedder || have.Dim != want.Dim) {
		// Vectors of two models do not mix: start over; Sync re-embeds everything.
		x.log.Info("embedder changed; re-embedding everything", "was", have.Embedder, "was_dim", have.Dim, "now", want.Embedder, "dim", want.Dim)
		if err := x.clear(timeout); err != nil {
			return err
		}
		have = meta{}
	}
	bl, err := x.openBleve(timeout)
	if err != nil {
		return err
	}
	x.bl = bl
	if err := x.openVectors(have, want, adopt); err != nil {
		bl.Close()
		x.bl = nil
		return err
	}
	x.meta = want
	return nil
}

// readMeta reads the index's meta.json: the zero meta when there is none
// (a new index) or when it was of an earlier format, whose index it
// clears for a rebuild.
func (x *Index) readMeta(timeout time.Duration) (meta, error) {
	var have meta
	name := filepath.Join(x.dir, metaName)
	data, err := os.ReadFile(name)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if _, serr := os.Stat(filepath.Join(x.dir, bleveDir)); serr == nil {
			return have, fmt.Errorf("%s is missing", name)
		}
	case err != nil:
		return have, fmt.Errorf("reading index meta: %w", err)
	default:
		if err := json.Unmarshal(data, &have); err != nil {
			return have, fmt.Errorf("%s: %w", name, err)
		}
		if have.Format > Format || have.Format < 1 {
			return have, fmt.Errorf("%s: format %d, this daybook reads %d", name, have.Format, Format)
		}
		if have.Format < Format {
			x.log.Info("index of an earlier daybook: rebuilding it", "format", have.Format, "now", Format, "dir", x.dir)
			if err := x.clear(timeout); err != nil {
				return have, err
			}
			have = meta{}
		}
	}
	return have, nil
}

// openBleve opens the bleve index, creating it when missing, waiting up to
// timeout for another process's lock (ErrBusy past it).
func (x *Index) openBleve(timeout time.Duration) (bleve.Index, error) {
	// Batches are safe (the default): Batch returns once the batch is on
	// disk. scorch's unsafe_batch would return earlier, but Close does not
	// flush what is not persisted yet, so a CLI run would lose its work.
	x.boltTimeout = timeout
	path := filepath.Join(x.dir, bleveDir)
	rt := map[string]any{"bolt_timeout": timeout.String()}
	if _, serr := os.Stat(path); errors.Is(serr, os.ErrNotExist) {
		bl, err := bleve.New(path, newMapping())
		if err != nil {
			return nil, fmt.Errorf("creating bleve index: %w", err)
		}
		bl.Close() // reopened below with the lock timeout
	}
	bl, err := bleve.OpenUsing(path, rt)
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("%w (waited %s for %s)", ErrBusy, timeout, path)
	}
	if err != nil {
		return nil, fmt.Errorf("opening bleve index: %w", err)
	}
	return bl, nil
}

// openVectors reads the manifest from the open bleve index and the vector
// store beside it: a new store for a new index (whose next write is a bulk
// build) or for one built while the embedder was unavailable (adopt), the
// store on disk otherwise, rewritten in the compact format when it is of
// format 1.
func (x *Index) openVectors(have, want meta, adopt bool) error {
	m, err := readManifest(x.bl)
	if err != nil {
		return err
	}
	x.setManifest(m)
	switch {
	case have.Embedder == "":
		x.vec = newVectors(want.Dim)
		// What bleve holds is forgotten: the next write is a bulk
		// build, which writes the manifest whole.
		x.manifest, x.stale = map[string]string{}, true
		if err := writeVectors(x.dir, want.Embedder, x.vec); err != nil {
			return err
		}
		return writeMeta(x.dir, want)
	case adopt:
		// Built while the embedder was unavailable: the text side stays,
		// and every document waits for its vector (FillVectors).
		x.log.Info("embedder answers: vectors can be made now", "embedder", want.Embedder, "dim", want.Dim)
		x.vec = newVectors(want.Dim)
		if err := writeVectors(x.dir, want.Embedder, x.vec); err != nil {
			return err
		}
		return writeMeta(x.dir, want)
	}
	v, err := readVectors(x.dir, want.Embedder, want.Dim)
	if err != nil {
		return err
	}
	if v.legacy {
		// Format 1 kept float32 components: the same codes, in a
		// quarter of the bytes or less.
		x.log.Info("vector store of an earlier daybook: writing it in the compact format", "vectors", v.len())
		if err := writeVectors(x.dir, want.Embedder, v); err != nil {
			return err
		}
		v.legacy = false
	}
	x.vec = v
	return nil
}

// clear removes the index files of another embedder, once it is sure no
// other process has them open.
func (x *Index) clear(timeout time.Duration) error {
	path := filepath.Join(x.dir, bleveDir)
	bl, err := bleve.OpenUsing(path, map[string]any{"bolt_timeout": timeout.String()})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return fmt.Errorf("%w (waited %s for %s)", ErrBusy, timeout, path)
	}
	if err == nil {
		bl.Close()
	}
	for _, name := range []string{metaName, vecBinName, vecLogName, bleveDir} {
		if err := os.RemoveAll(filepath.Join(x.dir, name)); err != nil {
			return fmt.Errorf("clearing index: %w", err)
		}
	}
	return nil
}

func writeMeta(dir string, m meta) error {
	data, _ := json.MarshalIndent(m, "", "  ")
	tmp := filepath.Join(dir, metaName+".tmp")
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing index meta: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, metaName)); err != nil {
		return fmt.Errorf("writing index meta: %w", err)
	}
	syncDir(dir)
	return nil
}

// Dir returns the index folder.
func (x *Index) Dir() string { return x.dir }

// Close writes the vector image when the log has grown, closes bleve and
// lets go of the open lock.
func (x *Index) Close() error {
	lock, err := x.closeFiles()
	if lock != nil {
		// Only now: what Close wrote is whole for the next process.
		err = errors.Join(err, lock.Close())
	}
	return err
}

// closeFiles is Close but for the open lock, which it returns (nil when
// the index was closed already) for the caller to let go of.
func (x *Index) closeFiles() (*os.File, error) {
	x.lockWrite()
	defer x.unlockWrite()
	if x.bl == nil || x.TextIndex.closed {
		return nil, nil
	}
	var errs []error
	if fi, err := os.Stat(filepath.Join(x.dir, vecLogName)); err == nil && fi.Size() > 0 {
		errs = append(errs, writeVectors(x.dir, x.meta.Embedder, x.vec))
	}
	errs = append(errs, x.bl.Close())
	// x.bl stays: a caller still holding this Index (a recall in flight when
	// a reindex closed it) gets bleve's "index closed" error, not a nil
	// pointer, and nothing writes the field another goroutine reads.
	x.TextIndex.closed, x.VectorStore.closed = true, true
	lock := x.lock
	x.lock = nil
	return lock, errors.Join(errs...)
}

// Empty closes x, removes its folder and opens a new, empty index in its
// place with opts (as Open does), holding the open lock throughout: no
// other process opens the old folder while it is removed, nor a half-made
// new one. On an error x is closed and the lock let go of.
func Empty(ctx context.Context, x *Index, opts Options) (*Index, error) {
	opts, err := withDefaults(x.dir, opts)
	if err != nil {
		return nil, err
	}
	lock, err := x.closeFiles()
	if lock == nil {
		return nil, errors.Join(err, fmt.Errorf("emptying index %s: %w", x.dir, bleve.ErrorIndexClosed))
	}
	if err != nil {
		lock.Close()
		return nil, err
	}
	want, offErr, err := wanted(ctx, opts)
	if err != nil {
		lock.Close()
		return nil, err
	}
	if err := os.RemoveAll(x.dir); err != nil {
		lock.Close()
		return nil, fmt.Errorf("removing the old index: %w", err)
	}
	y, err := openHolding(x.dir, opts, want, offErr, lock)
	if err != nil {
		lock.Close()
		return nil, err
	}
	return y, nil
}

// Stats describes the index.
type Stats struct {
	Docs     uint64 `json:"docs"`
	Vectors  int    `json:"vectors"`
	Sources  int    `json:"sources"` // files indexed
	Bytes    int64  `json:"bytes"`   // on disk
	Embedder string `json:"embedder"`
	Dim      int    `json:"dim"` // 0: the embedder has not answered yet
	// Pending counts documents waiting for a vector: the embedder was
	// unavailable when they were indexed. Unscanned says there may be more,
	// from an earlier run, that FillVectors has not looked for yet.
	Pending   int  `json:"pending"`
	Unscanned bool `json:"unscanned,omitempty"`
}

// Stats counts what the index holds.
func (x *Index) Stats() (Stats, error) {
	n, err := x.bl.DocCount()
	if err != nil {
		return Stats{}, fmt.Errorf("counting documents: %w", err)
	}
	x.TextIndex.mu.RLock()
	s := Stats{Docs: n, Sources: len(x.manifest)}
	x.TextIndex.mu.RUnlock()
	x.VectorStore.mu.RLock()
	s.Vectors, s.Embedder, s.Dim, s.Pending, s.Unscanned = x.vec.len(), x.meta.Embedder, x.meta.Dim, len(x.pending), x.scan
	x.VectorStore.mu.RUnlock()
	s.Bytes = DiskBytes(x.dir)
	return s, nil
}

// DiskBytes returns the bytes of the files under dir (an index folder): 0
// when there is none.
func DiskBytes(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
