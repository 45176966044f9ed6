// Package app is daybook's one wiring point: it carries out every operation
// of the daybook.Service contract (and the daemon's App) directly on the
// files of one data dir. The CLI calls it when no daemon runs; the daemon
// serves it over its socket; the MCP server calls one or the other.
//
// An App is the composition of its parts, each a type of its own that
// holds only what its operations use, beside the shared env (data dir,
// config, logger, clock, zone):
//
//   - Writer: Remember, RememberTurns, ReplayTurns, Import, PlanImport.
//   - Changes: tells the index and the write hooks that days changed
//     (after a write, DaysChanged, CatchUpEdits, IndexWaiting).
//   - Indexer: the index's life (Index, CatchUp, Reindex, CompactIndex).
//   - Reader: Recall and Context, through the index.
//   - Lookup: Day, Days, Find, Expand, from the markdown.
//   - TopicIndex: Topics, Topic.
//   - Summaries: consolidation (Consolidator, Consolidate, Browse).
//   - Models: the summarizer, the embedder, UpgradeLoop.
//   - StatusBoard, Statistics, Checkup: Status, Stats, Doctor.
//
// App embeds them, so its method set is theirs; NewWith builds the parts
// and wires them to each other in one place, and what differs between the
// processes that run an App (the daemon, a CLI command) is in Options,
// fixed at construction. The policies live in the packages whose concern
// they are: appends and merges in merge (Keeper), the context in assemble
// (Gather, Build), the background upgrade in ollama (Upgrader),
// consolidation in consolidate; the parts check a request, call them and
// answer in package daybook's terms.
package app

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/merge"
)

// The compiler holds App to the service contract that the API server, the
// CLI and MCP call.
var _ daybook.Service = (*App)(nil)

// App carries out daybook's operations on one data dir. It is the
// composition of the parts, each a type of its own holding only what it
// uses beside the shared env; App embeds them, so that its method set is
// theirs (daybook.Service, the daemon's App), and NewWith wires them to
// each other. It carries out no operation itself (TestAppIsOnlyTheComposition).
type App struct {
	*env         // the data dir, config, logger, clock and zone every part reads (env.go)
	*Writer      // entries in: remember, a chat's turns, import (remember.go, import.go)
	*Changes     // tells the index and the context's files of changed days (changed.go)
	*Indexer     // the search index's life: opened on first use, caught up, rebuilt (index.go)
	*Reader      // recall and the context, through the index (recall.go, context.go)
	*Lookup      // a day, the days of a range, find, expand: read from the markdown (day.go, expand.go)
	*TopicIndex  // the topics of the day files (topics.go)
	*Summaries   // consolidation, and what it wrote: browse, stale periods (consolidate.go)
	*Models      // the summarizer, the embedder and their background upgrade (models.go)
	*StatusBoard // status, with each part's share (status.go)
	*Statistics  // stats (stats.go)
	*Checkup     // doctor (doctor.go)

	use *usagePart // retrieval counts for the context's utility score (usage.go): Close writes them
}

// Options tune an App for the process that runs it; the zero value is
// what a CLI command wants. They are fixed at construction.
type Options struct {
	// IndexLockTimeout is how long opening the index waits for another
	// process to let go of it; 0: 200ms. The daemon waits longer.
	IndexLockTimeout time.Duration
	// IndexProgress, if set, hears a full build of the index (a first
	// build, an earlier format's rebuild) report done of total files
	// (index.Options.Progress), from the build's goroutine: the CLI draws
	// a bar on a terminal, the daemon too.
	IndexProgress func(done, total int)
	// BackgroundCatchUp says that someone (the daemon) calls CatchUp
	// regularly: once the index has caught up after opening, a request
	// never runs the full catch-up itself, which stat()s every day file
	// and summary (its cost is in BENCHMARKS.md, "Figures behind the code").
	BackgroundCatchUp bool
	// UpgradePause is the least pause between two summaries the upgrade
	// loop redoes (0: ollama.DefaultUpgradePause, 10s); UpgradeEvery how
	// often it looks for work (0: ollama.DefaultUpgradeEvery).
	UpgradePause, UpgradeEvery time.Duration
	// Now is the clock every part reads (today's date, entry times, the
	// recency of what is recalled); nil: time.Now. A test or an eval at
	// a fixed date gives its own.
	Now func() time.Time
}

// New returns an App for the data dir with a validated config and the
// default Options.
func New(dir string, cfg config.Config, log *slog.Logger) *App {
	return NewWith(dir, cfg, log, Options{})
}

// NewWith returns an App for the data dir with a validated config, tuned
// by opts. It is the one place where the parts are wired to each other:
// what is written reaches the index, and each part fills in its share of
// a status answer. Parts are opened on first use.
func NewWith(dir string, cfg config.Config, log *slog.Logger, opts Options) *App {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	e := newEnv(dir, cfg, log, now)
	a := &App{env: e, use: &usagePart{dir: dir, log: log, now: now}}
	// The parts, each opening or building what it holds on first use.
	// The context's kept listings and files (context_files.go): the
	// context reads through them, and the index parses the days with them.
	files := newContextFiles(dir)
	a.Models = &Models{env: e}
	a.Indexer = &Indexer{env: e, embedder: a.Models.embedder, days: files, opts: opts}
	a.Models.index = a.Indexer
	a.Summaries = &Summaries{env: e, summarizer: a.Models.summarizer}
	a.Models.setUpgrader(a.Summaries.Consolidator, opts)
	keep := merge.New(dir, merge.Options{
		Loc: e.Loc, Log: log, Now: now,
		Again: func(days []date.Date) { a.Changes.DaysChanged(context.Background(), days) },
	})
	a.Changes = &Changes{env: e, keep: keep, index: a.Indexer}
	a.Writer = &Writer{env: e, keep: keep, changes: a.Changes}
	a.Reader = &Reader{env: e, index: a.Indexer, use: a.use, files: files}
	a.Lookup = &Lookup{env: e, use: a.use}
	a.TopicIndex = &TopicIndex{env: e}
	a.StatusBoard = &StatusBoard{env: e}
	a.Statistics = &Statistics{env: e, topics: a.TopicIndex, summaries: a.Summaries, reader: a.Reader,
		background: opts.BackgroundCatchUp}
	a.Checkup = &Checkup{env: e}

	// Entries and summaries written through the App, or reported changed,
	// are indexed at once when the index is open (Changes.afterWrite; a
	// chat's turns a moment later, RememberTurns); a closed index catches
	// up when it opens. The context's kept listings and files follow the
	// same writes.
	a.Changes.onWrite(func(_ context.Context, days []date.Date) { files.changedDays(days) })
	a.Summaries.OnSummary(func(_ context.Context, s *consolidate.Summary) { files.changedSummary(s.Period.Path(dir)) })
	a.Summaries.OnSummary(func(ctx context.Context, s *consolidate.Summary) {
		a.Indexer.syncPaths(ctx, "summaries", []string{s.Rel})
	})
	// Status: the summaries, the index, the models.
	a.OnStatus(a.Summaries.fillStatus)
	a.OnStatus(a.Indexer.fillStatus)
	a.OnStatus(a.Models.fillStatus)
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

// Close releases what the App holds open: the retrieval counts and the
// index, written to disk first.
func (a *App) Close() error {
	a.Changes.keep.Close()
	a.Changes.IndexWaiting()
	return errors.Join(a.use.flush(), a.Indexer.close())
}
