package app

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/util/logkey"
)

// IndexDir is the index folder under the data dir.
const IndexDir = "index"

// fullSyncEvery is how old the last full catch-up may be before a recall
// runs another: it finds hand edits that no hook reported.
const fullSyncEvery = 5 * time.Second

// Indexer is the index's life in an App: opened on first use and kept
// open, caught up with the files on the App's Options, told of what the
// App writes (syncDays, syncPaths), rebuilt (Reindex), compacted, closed.
type Indexer struct {
	*env
	embedder func() index.Embedder
	days     index.DayParser // the context's kept days: a grown day is parsed from its last entry on
	opts     Options

	// opening is held across opening the index and the full catch-up
	// that follows (get), or emptying it (empty): one at a time, and a
	// request that needs the index waits for it. Nothing else waits on it:
	// a request that does not need the index (remember, day, find,
	// status) answers during a first build.
	opening sync.Mutex

	mu       sync.Mutex // guards what follows; held for moments only
	x        *index.Index
	lastFull time.Time // the last full catch-up; zero: none yet
	// full counts the full catch-ups and empties running: meanwhile, the
	// paths the write hooks report wait in queued, instead of waiting for
	// the index's write lock behind a build, and are indexed when the
	// last one ends (endFull).
	full   int
	queued []string
}

// corpora returns what the index is built from.
func (p *Indexer) corpora() []index.Corpus {
	return []index.Corpus{index.DayFiles{Root: p.dir, Log: p.log, Parser: p.days}, summaryFiles{root: p.dir}}
}

// Index opens the index on first use and brings it up to date with the
// files: a full catch-up at most every few seconds, or only once after
// opening with Options.BackgroundCatchUp. The write hooks (NewWith) keep
// it current meanwhile. It returns index.ErrBusy when another process
// holds it.
func (p *Indexer) Index(ctx context.Context) (*index.Index, error) { return p.get(ctx, true) }

// get opens the index if needed and, with catchUp, runs the full catch-up
// when one is due.
func (p *Indexer) get(ctx context.Context, catchUp bool) (*index.Index, error) {
	p.opening.Lock()
	defer p.opening.Unlock()
	now := p.now()
	p.mu.Lock()
	due := catchUp && now.Sub(p.lastFull) >= fullSyncEvery
	if p.opts.BackgroundCatchUp {
		due = catchUp && p.lastFull.IsZero() // CatchUp's caller does the rest
	}
	if due {
		// Before the index is open: no hook writes to a new index
		// before its first build, which is a bulk build only while
		// the index is empty.
		p.full++
	}
	p.mu.Unlock()
	x, err := p.openHeld(ctx)
	if err != nil {
		if due {
			p.endFull(ctx, nil) // not open: the next open catches up with everything
		}
		return nil, err
	}
	if !due {
		return x, nil
	}
	_, err = p.syncFull(ctx, x)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// What is indexed still answers; the next call tries again.
		p.log.Warn("bringing the index up to date", logkey.System, "index", "err", err)
	} else {
		p.mu.Lock()
		p.lastFull = now
		p.mu.Unlock()
	}
	return x, nil
}

// syncFull brings x up to date with every file, as sync does, and then
// indexes what the write hooks reported meanwhile. The caller counted it
// in p.full.
func (p *Indexer) syncFull(ctx context.Context, x *index.Index) (index.SyncStats, error) {
	defer p.endFull(ctx, x)
	return p.syncStats(ctx, x)
}

// endFull ends a full catch-up or an empty that p.full counted; the last
// to end indexes the paths written meanwhile into x.
func (p *Indexer) endFull(ctx context.Context, x *index.Index) {
	p.mu.Lock()
	p.full--
	var queued []string
	if p.full == 0 {
		queued, p.queued = p.queued, nil
	}
	p.mu.Unlock()
	if x == nil || len(queued) == 0 {
		return
	}
	slices.Sort(queued)
	if _, err := x.SyncPaths(ctx, slices.Compact(queued), p.corpora()...); err != nil {
		p.log.Warn("indexing what was written during a full catch-up", logkey.System, "index", "files", len(queued), "err", err)
	}
}

// sync brings x up to date with every file, and logs what changed.
func (p *Indexer) sync(ctx context.Context, x *index.Index) error {
	_, err := p.syncStats(ctx, x)
	return err
}

func (p *Indexer) syncStats(ctx context.Context, x *index.Index) (index.SyncStats, error) {
	start := time.Now()
	st, err := x.Sync(ctx, false, p.corpora()...)
	if err == nil && st.Changed+st.Removed > 0 {
		p.log.Info("index brought up to date", logkey.System, "index", "changed", st.Changed, "removed", st.Removed,
			"docs", st.Docs, "took", time.Since(start).Round(time.Millisecond).String())
	}
	return st, err
}

// openHeld returns the index, opening it if it is not open. The caller
// holds p.opening; p.mu is not held while it opens, which may wait for
// another process or the embedder.
func (p *Indexer) openHeld(ctx context.Context) (*index.Index, error) {
	if x := p.open(); x != nil {
		return x, nil
	}
	x, err := index.Open(ctx, filepath.Join(p.dir, IndexDir), p.indexOptions())
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.x = x
	p.mu.Unlock()
	return x, nil
}

// indexOptions returns the options the index is opened with.
func (p *Indexer) indexOptions() index.Options {
	timeout := p.opts.IndexLockTimeout
	if timeout <= 0 {
		timeout = 200 * time.Millisecond
	}
	return index.Options{Embedder: p.embedder(), LockTimeout: timeout,
		Log: p.log, Now: p.now, Progress: p.opts.IndexProgress}
}

// empty closes the index, removes its folder and opens a new, empty one,
// all under p.opening and the index's open lock (index.Empty), so that
// neither a request nor another process opens the old folder in between.
// Opening first refuses an index another process holds before anything is
// removed. The paths written meanwhile wait for the build that follows
// (build): the caller calls it, whatever empty returns.
func (p *Indexer) empty(ctx context.Context) (*index.Index, error) {
	p.mu.Lock()
	p.full++ // ended by build
	p.mu.Unlock()
	p.opening.Lock()
	defer p.opening.Unlock()
	old, err := p.openHeld(ctx)
	if err != nil {
		return nil, err
	}
	x, err := index.Empty(ctx, old, p.indexOptions())
	p.mu.Lock()
	p.x = x
	p.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return x, nil
}

// build is the full catch-up after empty, or of a reindex of what
// changed; it ends what empty counted in p.full when counted is true.
func (p *Indexer) build(ctx context.Context, x *index.Index, counted bool) (index.SyncStats, error) {
	if !counted {
		p.mu.Lock()
		p.full++
		p.mu.Unlock()
	}
	if x == nil {
		p.endFull(ctx, nil)
		return index.SyncStats{}, nil
	}
	return p.syncFull(ctx, x)
}

// caughtUp notes a full catch-up done outside get (a reindex).
func (p *Indexer) caughtUp() {
	p.mu.Lock()
	p.lastFull = p.now()
	p.mu.Unlock()
}

// CatchUp brings the open index up to date with the files, as a request
// does every few seconds without Options.BackgroundCatchUp: it finds the
// hand edits that no hook or watcher reported. It does not hold the
// index's lock while it works, so requests go on; it does nothing when the
// index is not open.
func (p *Indexer) CatchUp(ctx context.Context) error {
	x := p.open()
	if x == nil {
		return nil
	}
	return p.sync(ctx, x)
}

// CompactIndex merges the open index into one segment when it has more
// than over, and returns how many it had (0 when it did nothing). An index
// built by a daybook before bulk builds compacted keeps a dozen segments,
// and every search pays for each; the daemon calls it once after opening.
// Scorch merges online: requests go on meanwhile.
func (p *Indexer) CompactIndex(ctx context.Context, over int) (int, error) {
	x := p.open()
	if x == nil {
		return 0, nil
	}
	return x.CompactOver(ctx, over)
}

// DropIndexPages lets go of the pages of the open index's files this
// process has mapped (index.DropMapped); it returns their bytes. The daemon
// calls it when it gives memory back.
func (p *Indexer) DropIndexPages() int64 {
	if x := p.open(); x != nil {
		return x.DropMapped()
	}
	return 0
}

// open returns the index if it is open, without opening it.
func (p *Indexer) open() *index.Index {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.x
}

// syncPaths indexes again the files at rels (paths under the data dir),
// when the index is open: the hooks call it after a write. Not open, the
// next Index call catches up. During a full catch-up (a first build) they
// wait in p.queued for its end, and the write that called answers at once.
func (p *Indexer) syncPaths(ctx context.Context, what string, rels []string) {
	if len(rels) == 0 {
		return
	}
	p.mu.Lock()
	if p.full > 0 {
		p.queued = append(p.queued, rels...)
		p.mu.Unlock()
		return
	}
	x := p.x
	p.mu.Unlock()
	if x == nil {
		return
	}
	if _, err := x.SyncPaths(ctx, rels, p.corpora()...); err != nil {
		p.log.Warn("indexing written "+what, logkey.System, "index", what, len(rels), "err", err)
	}
}

// syncDays is the write hook: the days' entries are indexed again at once.
func (p *Indexer) syncDays(ctx context.Context, days []date.Date) {
	paths := make([]string, len(days))
	for i, d := range days {
		paths[i] = dayfiles.RelPath(d)
	}
	p.syncPaths(ctx, "days", paths)
}

// fillStatus fills in the index's part of a status answer. The models'
// line (which embedder, how many vectors wait) is Models.fillStatus's.
func (p *Indexer) fillStatus(ctx context.Context, resp *daybook.StatusResponse) {
	x := p.open()
	if x == nil {
		return
	}
	st, err := x.Stats()
	if err != nil {
		return
	}
	resp.Index = daybook.IndexStatus{Bytes: st.Bytes, Documents: int(st.Docs), Vectors: st.Vectors, Dimension: st.Dim}
}

// close closes the index if it is open; Close calls it.
func (p *Indexer) close() error {
	p.opening.Lock()
	defer p.opening.Unlock()
	p.mu.Lock()
	x := p.x
	p.x = nil
	p.mu.Unlock()
	if x == nil {
		return nil
	}
	return x.Close()
}

// drop forgets the open index without waiting on a clean close of a
// broken one: the next use opens it again.
func (p *Indexer) drop() {
	p.mu.Lock()
	x := p.x
	p.x = nil
	p.mu.Unlock()
	if x != nil {
		x.Close()
	}
}
