package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
)

// batchDocs is how many documents go into one bleve batch, batchBytes how
// many bytes of text at most: 2,000 summaries are 12 MB of text.
const (
	batchDocs  = 2000
	batchBytes = 4 << 20
)

// bulkGCPercent is the GC percent of a bulk build (see sync).
const bulkGCPercent = 50

// dropEvery is how often a bulk build and its merge let go of the mapped
// pages of the index's files (DropMapped): a merge reads every segment it
// merges through their mappings, 170 MB of a 20-year build's resident set.
const dropEvery = 500 * time.Millisecond

// textBytes returns the bytes of s's texts.
func textBytes(s Source) int {
	n := 0
	for _, d := range s.Docs {
		n += len(d.Text)
	}
	return n
}

// embedChunk is how many texts go to the embedder at once.
const embedChunk = 256

// compactLog is the size past which the vector log is always folded into a
// new image: it bounds what a load replays.
const compactLog = 64 << 20

// minCompact is the size under which the vector log is not folded into the
// image: replaying it at load costs less than writing the image. Between the
// two, the log is folded once it outgrows the image, so that folding costs
// at most about one record's write per record logged.
const minCompact = 1 << 20

// Source is one markdown file the index is built from, and its documents.
type Source struct {
	Path  string // relative to the data dir, with forward slashes
	Stamp string // what says the file changed: size and modification time
	Docs  []Doc  // nil with Stamp "" when the file is gone
}

// apply indexes sources: the documents new or changed since the index last
// saw each source are upserted, and those it had before but has no more are
// deleted, in bleve and in the vector store (only new or changed texts are
// embedded: see diff.go), and the manifest records each source's stamp. With bulk, the vector
// log is skipped and the image written once at the end, and the manifest is
// saved only then (final says the last call of a build), so that a crash half-way redoes everything.
func (x *Index) apply(ctx context.Context, sources []Source, bulk, final bool) error {
	for len(sources) > 0 {
		n, docs, bytes := 0, 0, 0
		for n < len(sources) && (n == 0 || docs+len(sources[n].Docs) <= batchDocs && bytes < batchBytes) {
			docs += len(sources[n].Docs)
			bytes += textBytes(sources[n])
			n++
		}
		last := final && n == len(sources)
		if err := x.applyBatch(ctx, sources[:n], bulk, last); err != nil {
			return err
		}
		sources = sources[n:]
	}
	return nil
}

// applyBatch compares each source with what the index holds of it and
// writes only the difference: documents new or changed go to bleve, those
// gone are deleted, and only texts new or changed are embedded and logged.
func (x *Index) applyBatch(ctx context.Context, sources []Source, bulk, last bool) error {
	for _, s := range sources {
		for _, d := range s.Docs {
			if err := d.Validate(); err != nil {
				return fmt.Errorf("indexing %s: %w", s.Path, err)
			}
		}
	}
	plans := make([]sourcePlan, len(sources))
	for i, s := range sources {
		p, err := x.plan(ctx, s)
		if err != nil {
			return err
		}
		plans[i] = p
	}
	ok := false
	defer func() {
		if !ok {
			for _, p := range plans {
				x.held.drop(p.src.Path) // read back from bleve next time
			}
		}
	}()
	// An id one source lost and another of the batch has is not stale.
	kept := map[string]bool{}
	for _, p := range plans {
		for id := range p.state {
			kept[id] = true
		}
	}
	// An unavailable embedder does not hold up the text side: the documents
	// go to bleve now and wait for their vectors (FillVectors).
	var need []Doc
	for _, p := range plans {
		for _, i := range p.vector {
			if p.reuse[p.docs[i].ID] == nil {
				need = append(need, p.docs[i])
			}
		}
	}
	vecs, err := x.embedOrWait(ctx, need)
	if err != nil {
		return err
	}

	// Both parts change under both locks: no reader sees one part written
	// and the other not, and Close waits for the whole write.
	x.lockWrite()
	defer x.unlockWrite()
	if err := x.VectorStore.openForWrites(); err != nil {
		return err
	}
	if err := x.VectorStore.apply(plans, vecs, kept, bulk, last); err != nil {
		return err
	}
	if err := x.TextIndex.apply(sources, plans, kept, bulk, last); err != nil {
		return err
	}
	ok = true
	return nil
}

// apply writes the vector side of a batch of plans: the vectors made
// (vecs, in the order of the plans' documents that need one and reuse
// none), reused or waiting, and the deletions of stale ids that no source
// of the batch kept; then the log, or with bulk the image at the end of
// the build (last). The caller holds lockWrite.
func (v *VectorStore) apply(plans []sourcePlan, vecs [][]float32, kept map[string]bool, bulk, last bool) error {
	k := 0
	for _, p := range plans {
		for _, i := range p.vector {
			d := p.docs[i]
			m := vecMeta{level: d.Level, parent: d.Parent(), start: dayNum(d.Start), end: dayNum(d.End)}
			vec := p.reuse[d.ID]
			if vec == nil {
				if vecs != nil {
					vec = vecs[k]
				}
				k++
			}
			if vec == nil {
				// An old vector would stand for the old text: it goes too.
				if v.vec.del(d.ID) && !bulk {
					v.vlog.del(d.ID)
				}
				v.addPending(d.ID, m)
				continue
			}
			v.dropPending(d.ID)
			v.vec.put(d.ID, m, vec)
			if !bulk {
				v.vlog.put(v.vec, d.ID)
			}
		}
		for _, id := range p.stale {
			if kept[id] {
				continue
			}
			v.dropPending(id)
			if v.vec.del(id) && !bulk {
				v.vlog.del(id)
			}
		}
	}
	if bulk {
		if last {
			if err := writeVectors(v.dir, v.meta.Embedder, v.vec); err != nil {
				return err
			}
		}
	} else if err := v.flushLog(); err != nil {
		return err
	}
	return nil
}

// apply writes the text side of a batch of plans to bleve, in one bleve
// batch with the manifest (with bulk, saved only at the end of the build:
// last), and keeps what it wrote of each source for the next plan (held).
// A batch that fails leaves the old manifest. The caller holds lockWrite.
func (t *TextIndex) apply(sources []Source, plans []sourcePlan, kept map[string]bool, bulk, last bool) error {
	b := t.bl.NewBatch()
	for _, p := range plans {
		for _, i := range p.upsert {
			d := p.docs[i]
			if err := b.Index(d.ID, d.bleve(p.state[d.ID])); err != nil {
				return fmt.Errorf("indexing %s: %w", d.ID, err)
			}
		}
		for _, id := range p.stale {
			if !kept[id] {
				b.Delete(id)
			}
		}
	}
	// The manifest takes the sources' new stamps once their documents are
	// written: a batch that fails leaves the old stamps, and the next Sync
	// of those files does the work again.
	commit, err := t.stageManifest(b, sources, bulk, last)
	if err != nil {
		return err
	}
	if err := t.batch(b); err != nil {
		return fmt.Errorf("writing index batch: %w", err)
	}
	commit()
	for _, p := range plans {
		if bulk || p.src.Stamp == "" {
			// A bulk build would fill memory with every source: they are
			// read back from bleve when they change.
			t.held.drop(p.src.Path)
		} else {
			t.held.set(p.src.Path, p.state)
		}
	}
	return nil
}

// batch writes b to bleve. When that fails, bleve is closed and opened
// again from what it has on disk, with the manifest saved there: scorch
// puts a batch's segment in its live snapshot before it writes it to
// disk, and when the write fails (a full disk) it returns the error and
// closes that segment, which stays in the snapshot. Closing an in-memory
// zap segment sets its caches to nil maps, so the next search that reads
// the segment's terms panics ("assignment to entry in nil map", in
// zapx's invertedIndexCache.insertLOCKED), and the persister keeps
// trying to write the closed segment. Opened again, the index is what is
// on disk, and the sources of the failed batch are indexed again by the
// next Sync. The caller holds lockWrite.
func (t *TextIndex) batch(b *bleve.Batch) error {
	err := t.bl.Batch(b)
	if err == nil {
		return nil
	}
	if rerr := t.reopen(); rerr != nil {
		return fmt.Errorf("%w; then reopening the index: %v", err, rerr)
	}
	t.log.Warn("a write to the index failed; the index was opened again from what is on disk, and the files of the batch are indexed again by the next sync", "err", err)
	return err
}

// reopen closes bleve and opens it again from disk, with its manifest.
// When it cannot, the closed index stays: reads and writes fail with
// bleve's ErrorIndexClosed until the index is opened anew. The caller
// holds lockWrite.
func (t *TextIndex) reopen() (err error) {
	func() {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("closing bleve after a failed write panicked: %v", p)
			}
		}()
		err = t.bl.Close()
	}()
	if err != nil {
		t.log.Warn("closing bleve after a failed write", "err", err)
	}
	path := filepath.Join(t.dir, bleveDir)
	bl, err := bleve.OpenUsing(path, map[string]any{"bolt_timeout": t.boltTimeout.String()})
	if err != nil {
		return fmt.Errorf("opening %s: %w", path, err)
	}
	m, err := readManifest(bl)
	if err != nil {
		bl.Close()
		return fmt.Errorf("reading the manifest of %s: %w", path, err)
	}
	t.bl = bl
	t.setManifest(m)
	t.held = held{} // read back from what bleve holds now
	return nil
}

// flushLog appends the buffered vector records to the log and folds the log
// into a new image when it has grown past minCompact and the image, or past
// compactLog. The caller holds lockWrite.
func (v *VectorStore) flushLog() error {
	size, err := v.vlog.flush(v.dir)
	if err != nil {
		return err
	}
	floor := v.compactFloor
	if floor <= 0 {
		floor = minCompact
	}
	if size <= floor {
		return nil
	}
	if size <= compactLog {
		if fi, err := os.Stat(filepath.Join(v.dir, vecBinName)); err == nil && size <= fi.Size() {
			return nil
		}
	}
	if err := writeVectors(v.dir, v.meta.Embedder, v.vec); err != nil {
		return fmt.Errorf("folding the vector log into the image: %w", err)
	}
	return nil
}

// embed returns the vectors of texts. The caller holds writeMu.
func (v *VectorStore) embed(ctx context.Context, all []string) ([][]float32, error) {
	out := make([][]float32, 0, len(all))
	for i := 0; i < len(all); i += embedChunk {
		texts := all[i:min(i+embedChunk, len(all))]
		vs, err := v.emb.Embed(ctx, texts)
		if err != nil {
			return nil, fmt.Errorf("embedding with %s: %w", v.emb.Name(), err)
		}
		if len(vs) != len(texts) {
			return nil, fmt.Errorf("embedding with %s: %d vectors for %d texts", v.emb.Name(), len(vs), len(texts))
		}
		if v.meta.Dim == 0 && len(vs) > 0 && len(vs[0]) > 0 {
			if err := v.adoptDim(len(vs[0])); err != nil {
				return nil, err
			}
		}
		for _, vec := range vs {
			if len(vec) != v.meta.Dim {
				return nil, fmt.Errorf("embedding with %s: a vector of dimension %d, the index has %d", v.emb.Name(), len(vec), v.meta.Dim)
			}
		}
		out = append(out, vs...)
	}
	return out, nil
}

// SyncStats reports what a Sync did.
type SyncStats struct {
	Files   int `json:"files"`   // source files seen
	Changed int `json:"changed"` // indexed again
	Removed int `json:"removed"` // gone from disk
	Docs    int `json:"docs"`    // documents written
}

// Corpus is a kind of source file: day files, summaries.
type Corpus interface {
	// List returns the files with their stamps.
	List(ctx context.Context) ([]Source, error)
	// Load returns a listed file with its documents.
	Load(ctx context.Context, s Source) (Source, error)
	// Stat returns the file at path (relative to the data dir) with its
	// stamp; ok is false when it is not this corpus's or is gone.
	Stat(path string) (s Source, ok bool)
}

// SyncPaths indexes the files at paths (relative to the data dir) again if
// they changed, and forgets those that are gone: what a write hook calls
// for the days or summaries it just wrote.
func (x *Index) SyncPaths(ctx context.Context, paths []string, corpora ...Corpus) (SyncStats, error) {
	x.writeMu.Lock()
	defer x.writeMu.Unlock()
	var st SyncStats
	var changes []Source
	for _, p := range paths {
		st.Files++
		var c Corpus
		var src Source
		for _, k := range corpora {
			if s, ok := k.Stat(p); ok {
				c, src = k, s
				break
			}
		}
		x.TextIndex.mu.RLock()
		had, known := x.manifest[p]
		x.TextIndex.mu.RUnlock()
		switch {
		case c == nil && known:
			changes = append(changes, Source{Path: p})
			st.Removed++
		case c == nil || had == src.Stamp:
		default:
			s, err := c.Load(ctx, src)
			if err != nil {
				x.log.Warn("indexing a file without its documents: it will not load", "path", p, "err", err)
				s = Source{Path: src.Path, Stamp: src.Stamp}
			}
			changes = append(changes, s)
			st.Changed++
			st.Docs += len(s.Docs)
		}
	}
	x.TextIndex.mu.RLock()
	bulk := len(x.manifest) == 0
	x.TextIndex.mu.RUnlock()
	return st, x.apply(ctx, changes, bulk, true)
}

// Sync brings the index up to date with the corpora: a diff of the files on
// disk against the manifest; only changed files are read again. With force
// every file is read again. Sync on an empty index is a bulk build: the
// vector image and the manifest are written once, at the end. A Sync that
// wrote compactDocs documents or more compacts the index afterwards.
func (x *Index) Sync(ctx context.Context, force bool, corpora ...Corpus) (SyncStats, error) {
	st, err := x.sync(ctx, force, corpora...)
	if err == nil && st.Docs >= compactDocs {
		// The build left its garbage in the heap; the merge's buffers would
		// come on top of it. Returned first, the peak of a 5-year reindex
		// is 432 MiB instead of 601.
		debug.FreeOSMemory()
		stop := x.dropMappedEvery(ctx, dropEvery)
		// After the write lock: writes go on while it merges.
		_, err := x.Compact(ctx)
		stop()
		if err != nil {
			x.log.Warn("index not compacted; searches work, a little slower", "err", err)
		}
	}
	return st, err
}

func (x *Index) sync(ctx context.Context, force bool, corpora ...Corpus) (SyncStats, error) {
	x.writeMu.Lock()
	defer x.writeMu.Unlock()
	type item struct {
		src Source
		c   Corpus
	}
	var st SyncStats
	var todo []item
	x.TextIndex.mu.RLock()
	gone := make(map[string]bool, len(x.manifest))
	for p := range x.manifest {
		gone[p] = true
	}
	bulk := len(x.manifest) == 0
	x.TextIndex.mu.RUnlock()
	for _, c := range corpora {
		ls, err := c.List(ctx)
		if err != nil {
			return st, err
		}
		st.Files += len(ls)
		x.TextIndex.mu.RLock()
		for _, s := range ls {
			delete(gone, s.Path)
			if force || x.manifest[s.Path] != s.Stamp {
				todo = append(todo, item{s, c})
			}
		}
		x.TextIndex.mu.RUnlock()
	}
	var changes []Source
	for p := range gone {
		changes = append(changes, Source{Path: p})
		st.Removed++
	}
	slices.SortFunc(changes, func(a, b Source) int { return strings.Compare(a.Path, b.Path) })
	total := len(todo)
	if bulk && total > 0 {
		x.log.Info("building the index", "files", total)
	}
	if bulk && total > 0 {
		// A build's garbage is most of its memory: collect it sooner (the
		// peak of a 20-year build was ~2x what it held live), and let go
		// of the mapped pages of the segments scorch merges as it goes.
		defer debug.SetGCPercent(debug.SetGCPercent(bulkGCPercent))
		defer x.dropMappedEvery(ctx, dropEvery)()
	}
	// Load and apply in slices, so that memory stays bounded on a full build.
	for len(todo) > 0 || len(changes) > 0 {
		docs, bytes := 0, 0
		for len(todo) > 0 && docs < 4*batchDocs && bytes < 4*batchBytes {
			s, err := todo[0].c.Load(ctx, todo[0].src)
			if err != nil {
				if ctx.Err() != nil {
					return st, ctx.Err()
				}
				x.log.Warn("indexing a file without its documents: it will not load", "path", todo[0].src.Path, "err", err)
				s = Source{Path: todo[0].src.Path, Stamp: todo[0].src.Stamp}
			}
			todo = todo[1:]
			changes = append(changes, s)
			docs += len(s.Docs)
			bytes += textBytes(s)
			st.Docs += len(s.Docs)
			st.Changed++
		}
		if err := x.apply(ctx, changes, bulk, len(todo) == 0); err != nil {
			return st, err
		}
		changes = changes[:0]
		if bulk && x.progress != nil {
			x.progress(total-len(todo), total)
		}
	}
	return st, nil
}
