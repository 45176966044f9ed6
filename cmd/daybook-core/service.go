package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/cli"
	"github.com/daybook/daybook/service"
)

func cmdService() cli.Command {
	return cli.Command{
		Name: "service", Args: "install|uninstall|start|stop|restart|status [--user] [--run-as USER]",
		Summary: "install and control \"daybook daemon\" as an OS service",
		Help: `install writes a systemd unit (Linux), a launchd plist (macOS) or a Windows
service that runs "daybook daemon" with this --dir and --config. --user makes
it a per-user service (systemd --user, a LaunchAgent); without it the service
is system-wide and needs root. Where no service manager runs (a container
without systemd), daybook says so and shows how to run the daemon yourself.`,
		Run: runService,
	}
}

func runService(ctx context.Context, e *cli.Env, args []string) error {
	fs := e.NewFlags("service")
	user := fs.Bool("user", false, "a per-user service (systemd --user, launchd LaunchAgent)")
	runAs := fs.String("run-as", "", "system service only: the account the daemon runs as")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || !slices.Contains(service.Actions, service.Action(pos[0])) {
		return cli.Usagef("service takes one of install, uninstall, start, stop, restart, status")
	}
	action := service.Action(pos[0])
	if *runAs != "" && *user {
		return cli.Usagef("--run-as is for system services; a --user service runs as you")
	}
	if err := e.Load(); err != nil {
		return err
	}
	exe, err := installedExe()
	if err != nil && action == service.Install {
		return err
	}
	spec := service.Spec{Name: "daybook", Exe: exe, DataDir: e.AbsDir, User: *user, RunAs: *runAs, RunningPID: runningDaemon(ctx, e)}
	if p, _, err := e.OSEnv.ConfigPath(e.ConfigPath); err == nil {
		if _, err := os.Stat(p); err == nil {
			spec.ConfigPath = p
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		spec.LogDir = filepath.Join(home, "Library", "Logs")
	}
	m := service.NewManager(spec)
	msg, err := m.Do(action)
	if err != nil {
		return err
	}
	scope := ""
	if *user {
		scope = ", user"
	}
	fmt.Fprintf(e.Stdout, "daybook service (%s%s): %s\n", m.Platform, scope, msg)
	if action == service.Status || action == service.Start || action == service.Restart {
		fmt.Fprintf(e.Stdout, "logs: %s\n", m.LogsHint())
	}
	return nil
}

// runningDaemon returns the pid of the daemon that answers for e's data
// dir, or 0.
func runningDaemon(ctx context.Context, e *cli.Env) int {
	c, _, err := cli.DialDaemon(ctx, e)
	if err != nil || c == nil {
		return 0
	}
	defer c.Close()
	st, err := c.Status(ctx, daybook.StatusRequest{Brief: true})
	if err != nil {
		return 0
	}
	return st.Daemon.PID
}

// installedExe returns the path of daybook as people run it: the front
// beside this binary ("daybook daemon", as the README says), else this
// binary. It refuses one that "go run" built in a temporary folder: the
// service would point at a file that is gone.
func installedExe() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding this binary: %w", err)
	}
	if p, err := filepath.EvalSymlinks(exe); err == nil {
		exe = p
	}
	if f := frontBeside(exe); f != "" {
		exe = f
	}
	if strings.Contains(exe, string(filepath.Separator)+"go-build") {
		return exe, errors.New("this daybook was built by \"go run\" in a temporary folder that will be removed; build it first (go build -o ~/.local/bin/ ./cmd/...) and run that binary's \"service install\"")
	}
	return exe, nil
}
