package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/daybook/daybook/internal/launch"
)

// Autostart starts the daemon for e's data dir when nothing listens on its
// socket, and waits at most wait for it to listen (launch.Ensure). by names
// the command, for "daybook status": "hook prompt", "mcp", "chat". Only the
// commands an agent runs call it; a command a person types works on the
// files when no daemon answers, and starts nothing. e must be loaded.
func Autostart(ctx context.Context, e *Env, by string, wait time.Duration) (launch.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	cfg := e.ConfigPath
	if cfg != "" {
		if abs, err := filepath.Abs(cfg); err == nil {
			cfg = abs
		}
	}
	res, err := launch.Ensure(ctx, launch.Options{Dir: e.AbsDir, Socket: e.Socket(), Config: cfg, By: by, Getenv: e.OSEnv.Getenv})
	if err == nil && (res.State == launch.Started || res.State == launch.Starting) {
		e.Logger().Debug("autostart", "state", res.State, "pid", res.PID, "log", res.Log)
	}
	return res, err
}

// startingNote is the one line of context a hook hands over when the
// daemon it started, or found starting, could not answer in time.
func startingNote(res launch.Result) string {
	who := "was just started"
	if res.PID != 0 {
		who = fmt.Sprintf("was just started (pid %d)", res.PID)
	}
	return "daybook memory is starting: its daemon " + who +
		" and is opening or building its index, so this prompt goes without memory; the next prompts get it."
}

// stillStartingNote is the line a later hook hands over while the daemon an
// earlier one started, up for up, is still opening or building its index.
func stillStartingNote(up time.Duration) string {
	return fmt.Sprintf("daybook memory is still starting: its daemon started %s ago and is opening or building its index, "+
		"so this prompt goes without memory; the next prompts get it once it is ready.", up.Round(time.Second))
}
