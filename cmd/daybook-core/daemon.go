package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/daybook/daybook/daemon"
	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/adapters/hooks"
	"github.com/daybook/daybook/internal/adapters/web"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/front"
	"github.com/daybook/daybook/service"
	"golang.org/x/term"
)

// stopTimeout bounds how long the daemon waits for running work at a signal.
const stopTimeout = 30 * time.Second

func cmdDaemon() command {
	return command{
		name: "daemon", args: "",
		summary: "run in the foreground: keep summaries and the index current, serve the socket",
		help: `One daemon runs per data dir: it holds DATA/daybook.pid locked; a second one
says which pid holds it and exits 1. At start, and after the machine slept,
it backfills every closed day, month and year that has entries and no current
summary. Then it consolidates on the schedule of the config (consolidate.daily,
monthly, yearly; an empty spec turns a job off) in the configured time zone,
and watches days/ for edits: an edited day's index entries are refreshed at
once and, with consolidate.on_edit, its day, month and year summaries after
consolidate.debounce. SIGINT or SIGTERM stops it; running work stops between
two summaries, so no file is left half written.

Logs go to stderr: text on a terminal, JSON otherwise (log.format, log.level;
-v is debug).`,
		run: runDaemon,
	}
}

func runDaemon(ctx context.Context, e *env, args []string) error {
	fs := e.newFlags("daemon")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if service.UnderManager() {
		// Windows' service manager starts and stops the daemon through its
		// own protocol, not with signals.
		return service.RunManaged("daybook", func(ctx context.Context) error { return daemonMain(ctx, e, pos) })
	}
	return daemonMain(ctx, e, pos)
}

// daemonMain runs the daemon until ctx ends.
func daemonMain(ctx context.Context, e *env, pos []string) error {
	if err := exactArgs("daemon", pos, 0, "no arguments"); err != nil {
		return err
	}
	if err := e.load(); err != nil {
		return err
	}
	lock, err := daemon.LockPID(e.absDir, os.Getpid())
	if err != nil {
		return err
	}
	defer lock.Release()

	terminal := isTerminal(e.stderr)
	logCfg := e.cfg.Log
	if e.verbose {
		logCfg.Level = "debug"
	}
	log := daemon.NewLogger(logCfg, e.stderr, terminal)
	var bar io.Writer
	if terminal {
		bar = e.stderr
	}
	a := app.NewWith(e.absDir, e.cfg, log, daemon.AppOptions(bar, log))
	e.app = a // closed by run when the command returns
	srv := api.NewServer(a, api.ServerOptions{IsUserError: app.IsUserError, Log: log})
	srv.Handle(http.MethodPost, front.Path, frontHandler(a, e.absDir))
	opts := daemon.Options{
		Handler:    srv,
		SocketPath: e.osEnv.SocketPath(e.cfg, e.absDir),
		Bar:        bar,
	}
	if e.cfg.Web.Listen != "" {
		ws, err := web.New(a, web.Options{Listen: e.cfg.Web.Listen, AllowRemote: e.cfg.Web.AllowRemote,
			Dir: a.Dir, Log: log, Now: a.Now, Loc: a.Loc()})
		if err != nil {
			return err
		}
		opts.Servers = append(opts.Servers, ws)
		log.Info("timeline page", "system", "web", "listen", e.cfg.Web.Listen, "open", "daybook web")
	}
	// Without ollama.enabled the upgrade loop returns at once.
	opts.Background = append(opts.Background, a.UpgradeLoop)
	// Captures a hook could not hand to a daemon wait in the spool.
	opts.Background = append(opts.Background, func(ctx context.Context) error {
		n, err := hooks.DrainLocked(ctx, a, a.Dir, func(msg string) { log.Warn(msg, "system", "hooks") })
		if n > 0 {
			log.Info("wrote the hooks' spooled entries", "system", "hooks", "entries", n)
		}
		return err
	})
	d, err := daemon.New(a, a.Consolidator(), opts)
	if err != nil {
		return err
	}
	if err := d.Run(); err != nil {
		return err
	}
	<-ctx.Done()
	log.Info("stopping", "system", "daemon", "reason", context.Cause(ctx).Error())
	stopCtx, cancel := context.WithTimeout(context.Background(), stopTimeout)
	defer cancel()
	return d.Close(stopCtx)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
