// Package app is daybook's one wiring point: it holds the data dir, the
// config and the parts built from them, and carries out every operation of
// package api directly on the files. The CLI calls it when no daemon runs;
// the daemon serves it over its socket; the MCP server calls one or the other.
package app

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/daybook/daybook/api"
	"github.com/daybook/daybook/config"
	"github.com/daybook/daybook/date"
	"github.com/daybook/daybook/merge"
)

// The compiler holds App to the service contract that the API server, the
// CLI and MCP call.
var _ api.Service = (*App)(nil)

// App carries out daybook's operations on one data dir.
type App struct {
	Dir    string // the data dir, absolute
	Config config.Config
	Log    *slog.Logger
	Now    func() time.Time // injected clock; time.Now by default

	writeHooks hooks[func(ctx context.Context, days []date.Date)]

	// parts: each part built from the data dir adds its field below this line.
	cons        consolidatePart   // the consolidator and its summary hooks (consolidate.go)
	idx         indexPart         // the search index, opened on first use (index.go)
	models      models            // summarizer and embedder, built once (models.go)
	statusHooks hooks[StatusHook] // see OnStatus
	keep        *merge.Keeper     // appends, and merges what others write to day files (package merge)
	topicsMu    sync.Mutex        // one topics.Load at a time (topics.go)
	counts      entryCounts       // each day's entry count, for status (status.go)
	use         usagePart         // retrieval counts for the context's utility score (usage.go)
	upg         upgradePart       // the background upgrade of offline-made summaries and missing vectors (upgrade.go)
	zone        zonePart          // the zone entries are written in, pinned per data dir (zone.go)
}

// OnWrite registers fn to be called after entries are written to days.
func (a *App) OnWrite(fn func(ctx context.Context, days []date.Date)) {
	a.writeHooks.add(fn)
}

// New returns an App for the data dir with a validated config.
func New(dir string, cfg config.Config, log *slog.Logger) *App {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	a := &App{Dir: dir, Config: cfg, Log: log, Now: time.Now}
	a.keep = merge.New(dir, merge.Options{
		Loc: a.Loc, Log: log, Now: func() time.Time { return a.Now() },
		Again: func(days []date.Date) { a.DaysChanged(context.Background(), days) },
	})
	return a
}

// ensurePrivateDir creates the data dir readable by its owner only, when it
// does not exist yet: it holds a person's memory. The write paths call it;
// reading and checking (status, doctor) create nothing. An existing dir is left as
// it is (doctor warns when others can read it); a failure shows up on the
// first write, naming the path.
func ensurePrivateDir(dir string, log *slog.Logger) {
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		return
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return
	}
	if err := os.Mkdir(dir, 0o700); err == nil {
		log.Debug("created the data dir", "dir", dir)
	}
}

// Today returns today's date in the configured time zone.
func (a *App) Today() date.Date { return date.Of(a.Now().In(a.Loc())) }

// Close releases what the App holds open: the retrieval counts and the
// index, written to disk first.
func (a *App) Close() error {
	a.keep.Close()
	return errors.Join(a.FlushUse(), a.closeIndex())
}
