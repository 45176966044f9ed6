package main

import (
	"context"
	"io"
	"os"
	"time"

	"golang.org/x/term"

	"github.com/daybook/daybook/daemon"
	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/adapters/web"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/cli"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/launch"
	"github.com/daybook/daybook/internal/spool"
	"github.com/daybook/daybook/internal/util/logkey"
	"github.com/daybook/daybook/service"
)

// stopTimeout bounds how long the daemon waits for running work at a signal.
const stopTimeout = 30 * time.Second

func cmdDaemon() cli.Command {
	return cli.Command{
		Name: "daemon", Args: "[stop]",
		Summary: "run in the foreground: keep summaries and the index current, serve the socket (\"daemon stop\" stops it)",
		Help: `One daemon runs per data dir: it holds DATA/daybook.pid locked; a second one
says which pid holds it and exits 1. At start, and after the machine slept,
it backfills every closed day, month and year that has entries and no current
summary. Then it consolidates on the schedule of the config (consolidate.daily,
monthly, yearly; an empty spec turns a job off) in the configured time zone,
and watches days/ for edits: an edited day's index entries are refreshed at
once and, with consolidate.on_edit, its day, month and year summaries after
consolidate.debounce. SIGINT or SIGTERM stops it; running work stops between
two summaries, so no file is left half written.

Logs go to stderr: text on a terminal, JSON otherwise (log.format, log.level;
-v is debug).

The hooks, mcp and chat start a daemon themselves when none answers
(autostart: detached, logging to DATA/state/daemon/daemon.log;
DAYBOOK_AUTOSTART=0 turns it off). "daybook status" says how the running one
was started. "daybook daemon stop" stops the daemon of the data dir (SIGTERM)
and waits until it has; a daemon run by the service is stopped with
"daybook service stop". "daybook service install" starts one at boot.`,
		Run: runDaemon,
	}
}

func runDaemon(ctx context.Context, e *cli.Env, args []string) error {
	fs := e.NewFlags("daemon")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 1 && pos[0] == "stop" {
		return stopDaemon(ctx, e)
	}
	if service.UnderManager() {
		// Windows' service manager starts and stops the daemon through its
		// own protocol, not with signals.
		return service.RunManaged("daybook", func(ctx context.Context) error { return daemonMain(ctx, e, pos) })
	}
	return daemonMain(ctx, e, pos)
}

// daemonMain runs the daemon until ctx ends.
func daemonMain(ctx context.Context, e *cli.Env, pos []string) error {
	if err := cli.ExactArgs("daemon", pos, 0, "no arguments"); err != nil {
		return err
	}
	if err := e.Load(); err != nil {
		return err
	}
	lock, err := daemon.LockPID(e.AbsDir, os.Getpid())
	if err != nil {
		return err
	}
	defer lock.Release()

	terminal := isTerminal(e.Stderr)
	logCfg := e.Cfg.Log
	if e.Verbose {
		logCfg.Level = "debug"
	}
	log := daemon.NewLogger(logCfg.Level, logCfg.Format, e.Stderr, terminal)
	var bar io.Writer
	if terminal {
		bar = e.Stderr
	}
	// The daemon waits longer for the index's lock, shows a first build's
	// progress and runs the full catch-ups itself, every Options.CatchUp.
	a := app.NewWith(e.AbsDir, e.Cfg, log, app.Options{IndexLockTimeout: daemon.IndexLockTimeout,
		IndexProgress: daemon.IndexProgress(bar, log), BackgroundCatchUp: true})
	e.SetLocal(a) // closed by run when the command returns
	by := launch.StartedBy(service.UnderManager())
	stop := "daybook daemon stop"
	if by == "service" {
		stop = "daybook service stop"
	}
	srv := api.NewServer(a, api.ServerOptions{Log: log, DataDir: e.AbsDir, StartedBy: by, Stop: stop})
	opts := daemon.Options{
		Handler:    srv,
		SocketPath: e.OSEnv.SocketPath(e.Cfg, e.AbsDir),
		Bar:        bar,
		Schedule:   schedule(e.Cfg.Consolidate),
	}
	if e.Cfg.Web.Listen != "" {
		ws, err := web.New(a, web.Options{Listen: e.Cfg.Web.Listen, AllowRemote: e.Cfg.Web.AllowRemote,
			Dir: a.Dir(), Log: log, Now: a.Now, Loc: a.Loc()})
		if err != nil {
			return err
		}
		opts.Servers = append(opts.Servers, ws)
		log.Info("timeline page", logkey.System, "web", "listen", e.Cfg.Web.Listen, "open", "daybook web")
	}
	if e.Cfg.Proxy.Listen != "" {
		ps, err := startProxy(a, e.Cfg, log)
		if err != nil {
			return err
		}
		opts.Servers = append(opts.Servers, ps)
		log.Info("memory proxy", logkey.System, "proxy", "listen", ps.Addr().String(), "upstream", e.Cfg.ProxyUpstream())
	}
	// Without ollama.enabled the upgrade loop returns at once.
	opts.Background = append(opts.Background, a.UpgradeLoop)
	// What could not be written (a hook without a daemon, a chat turn
	// whose write failed) waits in the spool.
	opts.Background = append(opts.Background, func(ctx context.Context) error {
		return spool.New(a.Dir()).Loop(ctx, a, func(msg string, args ...any) {
			log.Info(msg, append([]any{logkey.System, "spool"}, args...)...)
		})
	})
	d, err := daemon.New(a, a.Consolidator(), opts)
	if err != nil {
		return err
	}
	if err := d.Run(); err != nil {
		return err
	}
	// The socket listens: the hooks waiting on the autostart lock find it.
	launch.Listening()
	log.Info("how it was started", logkey.System, "daemon", "started_by", by, "stop", stop)
	<-ctx.Done()
	log.Info("stopping", logkey.System, "daemon", "reason", context.Cause(ctx).Error())
	stopCtx, cancel := context.WithTimeout(context.Background(), stopTimeout)
	defer cancel()
	return d.Close(stopCtx)
}

// schedule is the daemon's schedule as the config says.
func schedule(c config.Consolidate) daemon.Schedule {
	return daemon.Schedule{Daily: c.Daily, Monthly: c.Monthly, Yearly: c.Yearly, OnEdit: c.OnEdit, Debounce: c.Debounce}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
