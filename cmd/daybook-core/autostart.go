package main

import (
	"context"
	"time"

	"github.com/daybook/daybook/internal/cli"
)

// autostartWait bounds how long mcp and chat wait for the daemon they
// started to listen; past it they work on the files, as without a daemon.
const autostartWait = 10 * time.Second

// autostart starts the daemon for the data dir when none listens, for the
// commands an agent or a chat runs (mcp, chat): a long-lived client then
// shares the daemon's index instead of building its own. A problem is
// logged, and the command goes on: on the files when no daemon answers.
func autostart(ctx context.Context, e *cli.Env, by string) {
	if err := e.Load(); err != nil {
		return // Backend reports it
	}
	if _, err := cli.Autostart(ctx, e, by, autostartWait); err != nil {
		e.Logger().Warn("no daemon: working on the files", "err", err)
	}
}
