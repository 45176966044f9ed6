package main

import (
	"path/filepath"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/cli"
	"github.com/daybook/daybook/internal/util/progress"
)

// openApp is cli.Env's Local: the App that works on the files directly,
// when no daemon answers. e is loaded.
func openApp(e *cli.Env) (daybook.Service, error) {
	return newLocalApp(e, app.Options{}), nil
}

// newLocalApp returns the App on the files with opts, and the progress
// bar of a first index build. e is loaded.
func newLocalApp(e *cli.Env, opts app.Options) *app.App {
	opts.IndexProgress = firstIndexBuild(e)
	return app.NewWith(e.AbsDir, e.Cfg, e.Logger(), opts)
}

// local returns the App on the files, for the commands that need it
// whether or not a daemon answers.
func local(e *cli.Env) (*app.App, error) {
	s, err := e.LocalService()
	if err != nil {
		return nil, err
	}
	return s.(*app.App), nil
}

// firstIndexBuild returns the progress bar a terminal shows while the
// first command that needs the index builds it (a first use, or an index
// of an earlier daybook's format): seconds on a few years of day files,
// which would otherwise pass in silence; nil when the index need not be
// built or stderr is no terminal. Later catch-ups read only what changed
// and show nothing.
func firstIndexBuild(e *cli.Env) func(done, total int) {
	if !isTerminal(e.Stderr) {
		return nil
	}
	if !index.Rebuilds(filepath.Join(e.AbsDir, app.IndexDir)) {
		return nil
	}
	// No bar for a handful of files.
	update, finish := progress.Func(e.Stderr, "building the search index (first use)", 50)
	return func(done, total int) {
		update(done, total)
		if done == total {
			finish()
		}
	}
}
