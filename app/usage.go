package app

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/daybook/daybook/usage"
)

// usagePart counts how often recall and expand return each summary and
// entry (package usage), opened on first use.
type usagePart struct {
	once   sync.Once
	s      *usage.Store
	err    error
	opened atomic.Pointer[usage.Store] // s once open, for FlushUse
}

// useStore returns the retrieval counts of the data dir, opened on first use.
func (a *App) useStore() (*usage.Store, error) {
	a.use.once.Do(func() {
		a.use.s, a.use.err = usage.Open(a.Dir, usage.Options{Log: a.Log, Now: func() time.Time { return a.Now() }})
		if a.use.err == nil {
			a.use.opened.Store(a.use.s)
		}
	})
	return a.use.s, a.use.err
}

// RecordUse counts one use of each id that recall or expand returned: a
// summary (year:2026, month:2026-02, day:2026-02-13), an entry id or a line
// (2026-02-13:L12). The counts are batched and written by FlushUse, by a
// timer, or when enough wait; a store that will not open is logged once and
// counts nothing.
func (a *App) RecordUse(ids []string) {
	s, err := a.useStore()
	if err != nil {
		return // logged by usesOf on the context's first read
	}
	s.Record(ids...)
}

// FlushUse writes the waiting counts; Close should call it.
func (a *App) FlushUse() error {
	s := a.use.opened.Load()
	if s == nil {
		return nil // never opened: nothing waits
	}
	return s.Flush()
}

// usesOf returns the use counts, or none (with a warning) when the store
// will not open.
func (a *App) usesOf() map[string]usage.Count {
	s, err := a.useStore()
	if err != nil {
		a.Log.Warn("ignoring retrieval counts", "err", err)
		return nil
	}
	return s.Counts()
}
