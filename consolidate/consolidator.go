package consolidate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"log/slog"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/util/logkey"
)

// Consolidator builds and keeps current the summaries of one data dir.
// Set the fields, then call Run; the zero values of Log, Now and Loc are a
// discarding logger, time.Now and the local zone. A Consolidator may be
// shared: a Run holds the data dir's consolidation lock for its duration.
type Consolidator struct {
	Root       string // the data dir
	Loc        *time.Location
	Summarizer Summarizer
	Log        *slog.Logger
	Now        func() time.Time

	// OnWrite, if set, is called after each summary is written, with the
	// summary as written (the index adds it to recall).
	OnWrite func(ctx context.Context, s *Summary)
	// OnRemove, if set, is called after a summary whose inputs are gone (its
	// day file was deleted) is removed.
	OnRemove func(ctx context.Context, p Period)
}

// RunOptions chooses what a Run does.
type RunOptions struct {
	// Range limits the run to the days in it, and to the months and years
	// that overlap it; the zero Range is the whole history. Only closed
	// periods are consolidated: a day before today, a month before this
	// month, a year before this year, in Loc.
	Range date.Range
	// Level limits the run to one level; "" runs day, month and year in
	// that order. A month is built from the daily summaries that exist, so
	// running only months after editing days leaves those edits out until
	// the days are run.
	Level date.Level
	// Force rewrites every summary in scope, hand-edited ones included,
	// whether or not its inputs changed.
	Force bool
	// Upgrade rewrites every summary in scope that daybook wrote, whether or
	// not its inputs changed, and never one a person edited: what redoes an
	// offline-made summary with Ollama (see ollama.Upgrader).
	Upgrade bool
	// Progress, if set, is called after each period with how many of the
	// periods in scope are done.
	Progress func(done, total int)
}

// Stats reports a Run.
type Stats struct {
	Days, Months, Years int       // summaries written at each level
	Unchanged           int       // summaries whose inputs did not change
	Kept                []string  // summaries a person edited, left as they are (relative paths)
	Removed             []string  // summaries removed because their day files are gone
	Skipped             []Skipped // day files that could not be read or parsed
	Duration            time.Duration
}

// Written returns how many summaries were written in all.
func (s Stats) Written() int { return s.Days + s.Months + s.Years }

// Skipped is a day file a Run could not consolidate.
type Skipped struct {
	Path   string // relative to the data dir
	Reason string
}

func (c *Consolidator) logger() *slog.Logger {
	if c.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return c.Log.With(logkey.System, "consolidate")
}

func (c *Consolidator) now() time.Time {
	if c.Now == nil {
		return time.Now()
	}
	return c.Now()
}

func (c *Consolidator) loc() *time.Location {
	if c.Loc == nil {
		return time.Local
	}
	return c.Loc
}

// Today returns today in the Consolidator's zone.
func (c *Consolidator) Today() date.Date { return date.Of(c.now().In(c.loc())) }

// Run brings the summaries in scope up to date, day → month → year, and
// returns what it did. It holds the data dir's consolidation lock and fails
// at once with a *BusyError when another process holds it. Cancelling ctx
// stops it between periods; every file is then whole, and what was done is
// recorded. A day file that cannot be parsed is skipped, named in a log line
// and in Stats.Skipped; the rest of history is consolidated.
func (c *Consolidator) Run(ctx context.Context, opts RunOptions) (Stats, error) {
	start := time.Now()
	if c.Summarizer == nil {
		return Stats{}, errors.New("consolidating: no summarizer")
	}
	if _, err := ParseLevel(string(opts.Level)); err != nil {
		return Stats{}, err
	}
	unlock, err := lock(c.Root)
	if err != nil {
		return Stats{}, err
	}
	defer unlock()
	r := c.newRun(opts, false)
	removeStaleTemps(c.Root, r.log)
	err = r.do(ctx)
	if r.changed {
		if serr := r.st.save(c.Root); serr != nil && err == nil {
			err = serr
		}
	}
	r.stats.Duration = time.Since(start)
	if err == nil {
		r.log.Debug("consolidated", "written", r.stats.Written(), "unchanged", r.stats.Unchanged,
			"kept", len(r.stats.Kept), "skipped", len(r.stats.Skipped), "duration", r.stats.Duration)
	}
	return r.stats, err
}

// Stale returns the closed periods whose summary a Run over the whole
// history would write, days first, then months, then years. It takes no
// lock and writes nothing.
func (c *Consolidator) Stale(ctx context.Context) ([]Period, error) {
	r := c.newRun(RunOptions{}, true)
	if err := r.do(ctx); err != nil {
		return nil, err
	}
	return r.stale, nil
}

// dayDigest is the digest of a day summary's input: the day file's bytes.
func dayDigest(data []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "daybook summary v%d\nday\n", FormatVersion)
	h.Write(data)
	return sumOf(h)
}

// parentDigest is the digest of a month's or a year's input: for each
// summary below it, its id, its input digest and the hash of its file (so
// that a person's edit of a daily summary reaches its month).
func parentDigest(level date.Level, children []child) string {
	h := sha256.New()
	fmt.Fprintf(h, "daybook summary v%d\n%s\n", FormatVersion, level)
	for _, ch := range children {
		fmt.Fprintf(h, "%s %s %s\n", ch.p.ID(), ch.rec.Digest, ch.hash)
	}
	return sumOf(h)
}

func sumOf(h hash.Hash) string { return "sha256:" + hex.EncodeToString(h.Sum(nil)) }
