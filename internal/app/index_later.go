package app

import (
	"context"
	"slices"
	"sync"
	"time"

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

// indexLater queues days to be indexed after indexBatchDelay.
func (c *Changes) indexLater(days []date.Date) {
	l := &c.later
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, d := range days {
		if !slices.Contains(l.days, d) {
			l.days = append(l.days, d)
		}
	}
	if l.timer == nil {
		l.timer = time.AfterFunc(indexBatchDelay, c.flushLater)
	}
}

// flushLater indexes the days that wait, in one batch, after a flush
// under way.
func (c *Changes) flushLater() {
	l := &c.later
	l.flush.Lock()
	defer l.flush.Unlock()
	l.mu.Lock()
	days := l.days
	l.days, l.timer = nil, nil
	l.mu.Unlock()
	if len(days) > 0 {
		c.runWriteHook(context.Background(), c.index.syncDays, days)
	}
}

// IndexWaiting indexes at once the chat turns whose indexing waits
// (RememberTurns), and returns when they are indexed. Close does it too.
func (c *Changes) IndexWaiting() {
	l := &c.later
	l.mu.Lock()
	if l.timer != nil {
		l.timer.Stop() // a flush it began already waits on l.flush
	}
	l.mu.Unlock()
	c.flushLater()
}
