package app

import (
	"context"
	"sync/atomic"

	"github.com/daybook/daybook/index"
)

// SetIndexProgress makes the full catch-ups of the index report their
// progress to fn: done of total files read (total counts every file, so a
// catch-up that finds little to do ends early). The CLI shows it on a
// terminal while it builds an index for the first time, which takes
// seconds on a few years of day files. fn is called from the catch-up's
// goroutine; nil turns the reports off.
func (a *App) SetIndexProgress(fn func(done, total int)) {
	a.idx.mu.Lock()
	defer a.idx.mu.Unlock()
	a.idx.progress = fn
}

// syncCorpora returns the corpora for a full catch-up, counting the files
// they list and load when someone wants the progress. The caller holds
// a.idx.mu.
func (a *App) syncCorpora() []index.Corpus {
	cs := a.corpora()
	fn := a.idx.progress
	if fn == nil {
		return cs
	}
	n := &progressCount{fn: fn}
	for i, c := range cs {
		cs[i] = countingCorpus{Corpus: c, n: n}
	}
	return cs
}

// progressCount is the progress of one catch-up over all its corpora.
type progressCount struct {
	fn          func(done, total int)
	done, total atomic.Int64
}

// countingCorpus is a Corpus that counts what it lists and loads.
type countingCorpus struct {
	index.Corpus
	n *progressCount
}

func (c countingCorpus) List(ctx context.Context) ([]index.Source, error) {
	ls, err := c.Corpus.List(ctx)
	c.n.fn(int(c.n.done.Load()), int(c.n.total.Add(int64(len(ls)))))
	return ls, err
}

func (c countingCorpus) Load(ctx context.Context, s index.Source) (index.Source, error) {
	out, err := c.Corpus.Load(ctx, s)
	c.n.fn(int(c.n.done.Add(1)), int(c.n.total.Load()))
	return out, err
}
