package app

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
)

// indexBatchDelay is how long the days written by RememberTurns wait to be
// indexed: every turn of every chat through the memory proxy in that time
// goes into one index batch. Measured on 5 generated years, a context
// built right after a turn's own index batch took 11 ms, against 7.5 ms
// with no write before it: each batch is a bleve segment persisted (with
// its snapshot's copy of the manifest), merged later, and its garbage
// collected during the next turn's context.
const indexBatchDelay = time.Second

// laterDays are the days written whose indexing waits (RememberTurns).
type laterDays struct {
	flush sync.Mutex // held while a flush indexes: one at a time
	mu    sync.Mutex // guards what follows
	days  []date.Date
	timer *time.Timer // runs flushLater; nil when none is set
}

// RememberTurns appends the turns of a chat through the memory proxy, each
// as Remember would (its own time, kind and tags), in one write per day
// file (see rememberAll): the entries are in their day file, synced, when
// it returns, and in the context's kept days; their indexing waits up to
// indexBatchDelay, to be done in one batch with the other turns written
// meanwhile. Until then, recall finds them in the day files' recent
// entries of a context, not in the index. Close indexes what still waits.
//
// A text over entrytext.MaxTurnText is kept whole in a rest file beside the
// day, and its entry holds its start and the link (rememberAll).
func (a *App) RememberTurns(ctx context.Context, reqs []daybook.RememberRequest) ([]daybook.RememberResponse, error) {
	return a.rememberAll(ctx, reqs, false, false)
}

// ReplayTurns is RememberTurns for turns kept in the spool (internal/spool):
// the same write and the same one index batch, except that an entry its
// day file holds already is not written again, so that a replay a crash
// cut short (written, not yet taken out of the spool) writes nothing twice.
func (a *App) ReplayTurns(ctx context.Context, reqs []daybook.RememberRequest) ([]daybook.RememberResponse, error) {
	return a.rememberAll(ctx, reqs, false, true)
}

// indexLater queues days to be indexed after indexBatchDelay.
func (a *App) indexLater(days []date.Date) {
	l := &a.later
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, d := range days {
		if !slices.Contains(l.days, d) {
			l.days = append(l.days, d)
		}
	}
	if l.timer == nil {
		l.timer = time.AfterFunc(indexBatchDelay, a.flushLater)
	}
}

// flushLater indexes the days that wait, in one batch, after a flush
// under way.
func (a *App) flushLater() {
	l := &a.later
	l.flush.Lock()
	defer l.flush.Unlock()
	l.mu.Lock()
	days := l.days
	l.days, l.timer = nil, nil
	l.mu.Unlock()
	if len(days) > 0 {
		a.runWriteHook(context.Background(), a.Indexer.syncDays, days)
	}
}

// IndexWaiting indexes at once the chat turns whose indexing waits
// (RememberTurns), and returns when they are indexed. Close does it too.
func (a *App) IndexWaiting() {
	l := &a.later
	l.mu.Lock()
	if l.timer != nil {
		l.timer.Stop() // a flush it began already waits on l.flush
	}
	l.mu.Unlock()
	a.flushLater()
}
