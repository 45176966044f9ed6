package app

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/util/date"
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
	mu    sync.Mutex
	days  []date.Date
	timer *time.Timer // runs flush; nil when nothing waits
	idle  sync.Cond   // signalled when a flush ends
	busy  bool        // a flush is indexing
}

// RememberTurns appends the turns of a chat through the memory proxy, each
// as Remember would (its own time, kind and tags), in one write per day
// file (see rememberAll): the entries are in their day file, synced, when
// it returns, and in the context's kept days; their indexing waits up to
// indexBatchDelay, to be done in one batch with the other turns written
// meanwhile. Until
// then, recall finds them in the day files' recent entries of a context,
// not in the index. Close indexes what still waits.
func (a *App) RememberTurns(ctx context.Context, reqs []api.RememberRequest) ([]api.RememberResponse, error) {
	return a.rememberAll(ctx, reqs, false)
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

// flushLater indexes the days that wait, in one batch.
func (a *App) flushLater() {
	l := &a.later
	l.mu.Lock()
	for l.busy {
		l.idle.Wait()
	}
	days := l.days
	l.days, l.timer, l.busy = nil, nil, len(days) > 0
	l.mu.Unlock()
	if len(days) == 0 {
		return
	}
	a.runWriteHook(context.Background(), a.indexDays, days)
	l.mu.Lock()
	l.busy = false
	l.idle.Broadcast()
	l.mu.Unlock()
}

// IndexWaiting indexes at once the chat turns whose indexing waits
// (RememberTurns), and returns when they are indexed. Close does it too.
func (a *App) IndexWaiting() { a.closeLater() }

// closeLater indexes at once what waits, for Close.
func (a *App) closeLater() {
	l := &a.later
	l.mu.Lock()
	if l.timer != nil && l.timer.Stop() {
		l.timer = nil
	}
	l.mu.Unlock()
	a.flushLater() // also waits for a flush the timer began
}
