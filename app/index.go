package app

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/daybook/daybook/api"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/date"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/index"
)

// IndexDir is the index folder under the data dir.
const IndexDir = "index"

// fullSyncEvery is how old the last full catch-up may be before a recall
// runs another: it finds hand edits that no hook reported.
const fullSyncEvery = 5 * time.Second

// indexPart is the App's index, opened on first use and kept open.
type indexPart struct {
	mu       sync.Mutex
	x        *index.Index
	lastFull time.Time // the last full catch-up; zero: none yet
}

// corpora returns what the index is built from.
func (a *App) corpora() []index.Corpus {
	return []index.Corpus{index.DayFiles{Root: a.Dir, Log: a.Log}, summaryFiles{root: a.Dir}}
}

// Index opens the index on first use and brings it up to date with the
// files: a full catch-up at most every few seconds, or only once after
// opening with Options.BackgroundCatchUp. The write hooks (NewWith) keep
// it current meanwhile. It returns index.ErrBusy when another process holds it.
func (a *App) Index(ctx context.Context) (*index.Index, error) { return a.openAndSync(ctx, true) }

func (a *App) openAndSync(ctx context.Context, catchUp bool) (*index.Index, error) {
	p := &a.idx
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := a.openLocked(ctx); err != nil {
		return nil, err
	}
	now := a.Now()
	due := now.Sub(p.lastFull) >= fullSyncEvery
	if a.opts.BackgroundCatchUp {
		due = p.lastFull.IsZero() // CatchUp's caller does the rest
	}
	if catchUp && due {
		start := time.Now()
		st, err := p.x.Sync(ctx, false, a.corpora()...)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			// What is indexed still answers; the next call tries again.
			a.Log.Warn("bringing the index up to date", "system", "index", "err", err)
		} else {
			p.lastFull = now
		}
		if st.Changed+st.Removed > 0 {
			a.Log.Info("index brought up to date", "system", "index", "changed", st.Changed, "removed", st.Removed,
				"docs", st.Docs, "took", time.Since(start).Round(time.Millisecond).String())
		}
	}
	return p.x, nil
}

// openLocked opens the index if it is not open. The caller holds a.idx.mu.
func (a *App) openLocked(ctx context.Context) error {
	p := &a.idx
	if p.x != nil {
		return nil
	}
	timeout := a.opts.IndexLockTimeout
	if timeout <= 0 {
		timeout = 200 * time.Millisecond
	}
	x, err := index.Open(ctx, filepath.Join(a.Dir, IndexDir), index.Options{Embedder: a.NewEmbedder(), LockTimeout: timeout, Log: a.Log, Now: a.Now, Progress: a.opts.IndexProgress})
	if err != nil {
		return err
	}
	p.x = x
	return nil
}

// emptyIndex closes the index, removes its folder and opens a new, empty
// one, all under a.idx.mu, so that no request opens the old folder in
// between. Opening first refuses an index another process holds before
// anything is removed.
func (a *App) emptyIndex(ctx context.Context) (*index.Index, error) {
	p := &a.idx
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := a.openLocked(ctx); err != nil {
		return nil, err
	}
	dir := p.x.Dir()
	err := p.x.Close()
	p.x = nil
	if err != nil {
		return nil, err
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, fmt.Errorf("removing the old index: %w", err)
	}
	if err := a.openLocked(ctx); err != nil {
		return nil, err
	}
	return p.x, nil
}

// CatchUp brings the open index up to date with the files, as a request
// does every few seconds without Options.BackgroundCatchUp: it finds the hand
// edits that no hook or watcher reported. It does not hold a.idx.mu while
// it works, so requests go on; it does nothing when the index is not open.
func (a *App) CatchUp(ctx context.Context) error {
	x := a.openIndex()
	if x == nil {
		return nil
	}
	start := time.Now()
	st, err := x.Sync(ctx, false, a.corpora()...)
	if err != nil {
		return err
	}
	if st.Changed+st.Removed > 0 {
		a.Log.Info("index brought up to date", "system", "index", "changed", st.Changed, "removed", st.Removed,
			"docs", st.Docs, "took", time.Since(start).Round(time.Millisecond).String())
	}
	return nil
}

// CompactIndex merges the open index into one segment when it has more
// than over, and returns how many it had (0 when it did nothing). An index
// built by a daybook before bulk builds compacted keeps a dozen segments,
// and every search pays for each; the daemon calls it once after opening.
// Scorch merges online: requests go on meanwhile.
func (a *App) CompactIndex(ctx context.Context, over int) (int, error) {
	x := a.openIndex()
	if x == nil {
		return 0, nil
	}
	return x.CompactOver(ctx, over)
}

// openIndex returns the index if it is open, without opening it.
func (a *App) openIndex() *index.Index {
	a.idx.mu.Lock()
	defer a.idx.mu.Unlock()
	return a.idx.x
}

// indexDays is the write hook: the days' entries are indexed again at once.
func (a *App) indexDays(ctx context.Context, days []date.Date) {
	x := a.openIndex()
	if x == nil {
		return // not open: the next Index call catches up
	}
	paths := make([]string, len(days))
	for i, d := range days {
		paths[i] = dayfiles.RelPath(d)
	}
	if _, err := x.SyncPaths(ctx, paths, a.corpora()...); err != nil {
		a.Log.Warn("indexing written days", "system", "index", "days", len(days), "err", err)
	}
}

// indexSummaries is the summary hook: the summaries written (rels, their
// paths under the data dir) are indexed at once.
func (a *App) indexSummaries(ctx context.Context, rels ...string) {
	x := a.openIndex()
	if x == nil || len(rels) == 0 {
		return
	}
	if _, err := x.SyncPaths(ctx, rels, a.corpora()...); err != nil {
		a.Log.Warn("indexing written summaries", "system", "index", "summaries", len(rels), "err", err)
	}
}

// indexStatus fills in the index's part of a status answer.
func (a *App) indexStatus(ctx context.Context, resp *api.StatusResponse) {
	x := a.openIndex()
	if x == nil {
		return
	}
	st, err := x.Stats()
	if err != nil {
		return
	}
	resp.Index = api.IndexStatus{Bytes: st.Bytes, Documents: int(st.Docs), Vectors: st.Vectors, Dimension: st.Dim}
	// The models' line (which embedder, how many vectors wait) is
	// ModelStatus's.
}

// CloseIndex closes the index if it is open; Close calls it.
func (a *App) CloseIndex() error {
	a.idx.mu.Lock()
	defer a.idx.mu.Unlock()
	if a.idx.x == nil {
		return nil
	}
	err := a.idx.x.Close()
	a.idx.x = nil
	return err
}

// dropIndex forgets the open index without waiting on a clean close of a
// broken one: the next use opens it again.
func (a *App) dropIndex() {
	a.idx.mu.Lock()
	x := a.idx.x
	a.idx.x = nil
	a.idx.mu.Unlock()
	if x != nil {
		x.Close()
	}
}

// summaryFiles is the corpus of summary files under summaries/.
type summaryFiles struct{ root string }

func (c summaryFiles) List(ctx context.Context) ([]index.Source, error) {
	files, err := consolidate.List(c.root, "", date.Range{})
	if err != nil {
		return nil, err
	}
	out := make([]index.Source, len(files))
	for i, f := range files {
		out[i] = index.Source{Path: f.Rel, Stamp: index.Stamp(f.Size, f.ModTime.UnixNano())}
	}
	return out, nil
}

func (c summaryFiles) Stat(rel string) (index.Source, bool) {
	if !strings.HasPrefix(rel, consolidate.SummariesDir+"/") || !strings.HasSuffix(rel, ".md") {
		return index.Source{}, false
	}
	fi, err := os.Stat(filepath.Join(c.root, filepath.FromSlash(rel)))
	if err != nil || !fi.Mode().IsRegular() {
		return index.Source{}, false
	}
	return index.Source{Path: rel, Stamp: index.Stamp(fi.Size(), fi.ModTime().UnixNano())}, true
}

func (c summaryFiles) Load(ctx context.Context, src index.Source) (index.Source, error) {
	path := filepath.Join(c.root, filepath.FromSlash(src.Path))
	s, err := consolidate.ReadSummary(path)
	if err != nil {
		return src, err
	}
	if s.Period.Rel() != src.Path {
		return src, fmt.Errorf("%s: front matter says %s, which belongs at %s", src.Path, s.Period.ID(), s.Period.Rel())
	}
	var text strings.Builder
	text.WriteString(s.Prose)
	for _, d := range s.Decisions {
		text.WriteString("\n" + d.Text)
	}
	if len(s.Keywords) > 0 {
		// The key routes recall to the period: searched, and shown in a
		// snippet like the rest of the summary.
		text.WriteString("\nKeywords:")
		for _, k := range s.Keywords {
			text.WriteString(" " + k.Name)
		}
	}
	var tags []string
	for _, t := range s.Tags {
		tags = append(tags, t.Name)
	}
	r := s.Period.Range()
	src.Docs = []index.Doc{{
		ID: s.ID(), Level: s.Period.Level, Period: s.Period.String(), Kind: "summary", Tags: tags,
		Text: text.String(), Path: src.Path, Line: proseLine(path), Start: r.From, End: r.To,
	}}
	return src, nil
}

// proseLine returns the line of a summary's first prose line: after the
// front matter and the title; 1 when it cannot tell.
func proseLine(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), consolidate.MaxSummarySize)
	n, fences := 0, 0
	for sc.Scan() {
		n++
		l := strings.TrimSpace(sc.Text())
		switch {
		case fences < 2 && l == "---":
			fences++
		case fences < 2 && n == 1:
			fences = 2 // no front matter
			fallthrough
		case fences >= 2 && l != "" && !strings.HasPrefix(l, "# "):
			return n
		}
	}
	return 1
}
