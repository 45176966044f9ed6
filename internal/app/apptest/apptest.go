// Package apptest builds an App on a data dir for tests of the packages
// above package app (the daemon, the adapters, the index's tests through
// an App), in the spirit of net/http/httptest: New(t, dir) is an App with
// the default config in UTC, closed when the test ends. It is apart from
// package daybooktest, which writes data dirs, so that the tests inside
// the packages app is built on can use that one.
package apptest

import (
	"log/slog"
	"testing"
	"time"

	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/config"
)

// An Option changes the App that New builds.
type Option func(*settings)

type settings struct {
	cfg  *config.Config
	log  *slog.Logger
	now  func() time.Time
	opts app.Options
}

// Config is the App's config instead of the default in UTC; New validates it.
func Config(cfg config.Config) Option { return func(s *settings) { s.cfg = &cfg } }

// Log is where the App logs; the default discards.
func Log(log *slog.Logger) Option { return func(s *settings) { s.log = log } }

// Now is the App's clock instead of time.Now.
func Now(now func() time.Time) Option { return func(s *settings) { s.now = now } }

// At stops the App's clock at t.
func At(t time.Time) Option { return Now(func() time.Time { return t }) }

// Options are the App's options (app.NewWith).
func Options(opts app.Options) Option { return func(s *settings) { s.opts = opts } }

// New returns an App on the data dir dir, closed (index, merge bases and
// usage flushed) when t ends.
func New(t testing.TB, dir string, opts ...Option) *app.App {
	t.Helper()
	var s settings
	for _, o := range opts {
		o(&s)
	}
	cfg := config.Default()
	cfg.Timezone = "UTC"
	if s.cfg != nil {
		cfg = *s.cfg
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	if s.now != nil {
		s.opts.Now = s.now
	}
	a := app.NewWith(dir, cfg, s.log, s.opts)
	t.Cleanup(func() {
		if err := a.Close(); err != nil {
			t.Errorf("closing the App on %s: %v", dir, err)
		}
	})
	return a
}
