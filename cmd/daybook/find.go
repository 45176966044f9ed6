package main

import (
	"context"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/cli"
	"github.com/daybook/daybook/internal/dayfind"
)

// cmdFind is find, which the front runs on the files itself when no daemon
// answers: it reads the day files only (package dayfind, the App's own
// Find), so that a find pays no start of daybook-core, whose search index
// takes tens of milliseconds to start. So does a socket no daemon answers
// on (a stale one, or a daemon of another data dir): nothing ran, and find
// then reads the files. A config file that ReadSimple does not take still
// goes to daybook-core (cli.ErrFullConfig), which says what is wrong in it.
func cmdFind() cli.Command {
	c := cli.CmdFind()
	run := c.Run
	c.Run = func(ctx context.Context, e *cli.Env, args []string) error {
		e.Local = func(e *cli.Env) (daybook.Service, error) { return filesFind{e: e}, nil }
		err := run(ctx, e, args)
		if cli.Unanswered(err) {
			e.SetLocal(filesFind{e: e})
			err = run(ctx, e, args)
		}
		return err
	}
	return c
}

// filesFind is the Service find uses when no daemon answers: its Find on
// the files; find calls nothing else (the Service it embeds is nil).
type filesFind struct {
	daybook.Service
	e *cli.Env
}

// Find is the App's Find (dayfind.Find), its days taken in the data dir's
// zone as the App takes them.
func (f filesFind) Find(_ context.Context, req daybook.FindRequest) (daybook.FindResponse, error) {
	log := f.e.Logger()
	today := date.Of(time.Now().In(f.e.Cfg.DirZone(f.e.AbsDir, log)))
	return dayfind.Find(f.e.AbsDir, today, log, req)
}
