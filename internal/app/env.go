package app

import (
	"log/slog"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/config"
)

// env is what every part reads and none changes: the data dir, its
// config, the logger, the clock and the zone. NewWith builds one; each part
// holds it beside the fields of its own.
type env struct {
	dir  string // the data dir, absolute
	cfg  config.Config
	log  *slog.Logger
	now  func() time.Time // the clock, Options.Now
	zone *zonePart        // the zone entries are written in, pinned per data dir (zone.go)
}

func newEnv(dir string, cfg config.Config, log *slog.Logger, now func() time.Time) *env {
	return &env{dir: dir, cfg: cfg, log: log, now: now, zone: &zonePart{dir: dir, cfg: cfg, log: log}}
}

// Dir returns the data dir, absolute.
func (e *env) Dir() string { return e.dir }

// Config returns the validated config the App was built with.
func (e *env) Config() config.Config { return e.cfg }

// Logger returns the App's logger.
func (e *env) Logger() *slog.Logger { return e.log }

// Now returns the time by the App's clock (Options.Now).
func (e *env) Now() time.Time { return e.now() }

// Today returns today's date in the configured time zone.
func (e *env) Today() date.Date { return date.Of(e.now().In(e.Loc())) }

// Loc returns the zone every entry's day and time are taken in: the
// configured one, or for "Local" the data dir's pinned one (ZoneFile).
func (e *env) Loc() *time.Location { return e.zone.get() }
