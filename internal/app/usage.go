package app

import (
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/daybook/daybook/internal/app/usage"
)

// usagePart counts how often recall and expand return each summary and
// entry (package usage), opened on first use.
type usagePart struct {
	dir string
	log *slog.Logger
	now func() time.Time

	once   sync.Once
	s      *usage.Store
	err    error
	opened atomic.Pointer[usage.Store] // s once open, for flush
}

// store returns the retrieval counts of the data dir, opened on first use.
func (u *usagePart) store() (*usage.Store, error) {
	u.once.Do(func() {
		u.s, u.err = usage.Open(u.dir, usage.Options{Log: u.log, Now: u.now})
		if u.err == nil {
			u.opened.Store(u.s)
		}
	})
	return u.s, u.err
}

// record counts one use of each id that recall or expand returned: a
// summary (year:2026, month:2026-02, day:2026-02-13), an entry id or a line
// (2026-02-13:L12). The counts are batched and written by flush, by a
// timer, or when enough wait; a store that will not open is logged once and
// counts nothing.
func (u *usagePart) record(ids []string) {
	s, err := u.store()
	if err != nil {
		return // logged by usesOf on the context's first read
	}
	s.Record(ids...)
}

// flush writes the waiting counts; Close should call it.
func (u *usagePart) flush() error {
	s := u.opened.Load()
	if s == nil {
		return nil // never opened: nothing waits
	}
	return s.Flush()
}

// counts returns the use counts, or none (with a warning) when the store
// will not open.
func (u *usagePart) counts() map[string]usage.Count {
	s, err := u.store()
	if err != nil {
		u.log.Warn("ignoring retrieval counts", "err", err)
		return nil
	}
	return s.Counts()
}
