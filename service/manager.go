package service

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	kservice "github.com/kardianos/service"
)

// Action is a service command.
type Action string

// The actions of "daybook service".
const (
	Install   Action = "install"
	Uninstall Action = "uninstall"
	Start     Action = "start"
	Stop      Action = "stop"
	Restart   Action = "restart"
	Status    Action = "status"
)

// Actions lists the actions in the order help shows them.
var Actions = []Action{Install, Uninstall, Start, Stop, Restart, Status}

// supported lists the service managers daybook installs into. Others that
// the library knows (SysV scripts, upstart, OpenRC, procd) would "install" a
// script that nothing may ever run in a container, so they are refused.
var supported = map[string]bool{"linux-systemd": true, "darwin-launchd": true, "windows-service": true}

// ErrNoManager says no supported service manager runs here.
var ErrNoManager = errors.New("no systemd, launchd or Windows service manager is running")

// Manager carries out actions on the daybook service.
type Manager struct {
	Spec Spec
	// Platform is the service manager, as kardianos/service names it
	// ("linux-systemd"); empty means the one detected on this machine.
	Platform string
	// Euid is the effective user id (os.Geteuid by default); system services need 0.
	Euid int
	// Run runs a command and returns its combined output (exec by default).
	Run func(name string, args ...string) (string, error)
	// Wait is how long Start waits to see the service running.
	Wait time.Duration
}

// NewManager returns a Manager for spec on this machine.
func NewManager(spec Spec) *Manager {
	m := &Manager{Spec: spec, Euid: os.Geteuid(), Run: runCommand, Wait: 10 * time.Second}
	if sys := kservice.ChosenSystem(); sys != nil {
		m.Platform = sys.String()
	}
	return m
}

func runCommand(name string, args ...string) (string, error) {
	out, err := exec.Command(name, args...).CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// fallbackHint tells how to run daybook without a service manager.
func (m *Manager) fallbackHint() string {
	var words []string
	for _, a := range append([]string{m.Spec.Exe}, m.Spec.Args()...) {
		words = append(words, shellQuote(a))
	}
	cmd := strings.Join(words, " ")
	// The log goes into the data dir, not whatever folder the user is in.
	logFile := filepath.Join(m.Spec.DataDir, "daybook.log")
	if pid := m.Spec.RunningPID; pid != 0 {
		return fmt.Sprintf("a daemon already runs on %s (pid %d), so nothing needs starting now; "+
			"it stops with the machine: to start it again then, in the background, logging to %s:\n  nohup %s >>%s 2>&1 &",
			m.Spec.DataDir, pid, logFile, cmd, shellQuote(logFile))
	}
	return fmt.Sprintf("run the daemon yourself instead, in a terminal or tmux:\n  %s\nor in the background, logging to %s:\n  nohup %s >>%s 2>&1 &",
		cmd, logFile, cmd, shellQuote(logFile))
}

// shellQuote returns s as a POSIX shell word: as it is when it holds only
// safe characters, else in single quotes.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// check says why action cannot work here, or nil.
func (m *Manager) check(action Action) error {
	if !supported[m.Platform] {
		// Not the library's name for what it found ("unix-systemv"), which
		// reads as if that were a manager daybook could use.
		return fmt.Errorf("%w here, and daybook installs only into those; %s", ErrNoManager, m.fallbackHint())
	}
	if m.Platform == "linux-systemd" {
		if m.Spec.User {
			if out, err := m.Run("systemctl", "--user", "show-environment"); err != nil {
				return fmt.Errorf("the systemd user manager does not answer (%s): log in to a user session (a container or su shell has none), and run \"loginctl enable-linger %s\" so it starts at boot; or %s",
					firstLine(out, err), currentUser(), m.Fallback())
			}
		} else if _, err := m.Run("systemctl", "is-system-running"); err != nil && !isDegraded(err) {
			return fmt.Errorf("systemd is installed but not running as the init system; %s", m.fallbackHint())
		}
	}
	if !m.Spec.User && runtime.GOOS != "windows" && m.Euid != 0 && action != Status {
		return fmt.Errorf("a system service needs root for %q: run it with sudo, or use --user for a service of your own", action)
	}
	return nil
}

// Fallback returns the hint for running without a service manager.
func (m *Manager) Fallback() string { return m.fallbackHint() }

func isDegraded(err error) bool {
	// "systemctl is-system-running" exits non-zero when degraded or starting;
	// the manager still runs then.
	var ee *exec.ExitError
	return errors.As(err, &ee)
}

func firstLine(out string, err error) string {
	if out == "" {
		return err.Error()
	}
	return strings.SplitN(out, "\n", 2)[0]
}

func currentUser() string {
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	return "$USER"
}

// service builds the kardianos service with daybook's own unit files.
func (m *Manager) service() (kservice.Service, error) {
	cfg := &kservice.Config{
		Name:        m.Spec.Name,
		DisplayName: "daybook",
		Description: "daybook memory daemon",
		Executable:  m.Spec.Exe,
		Arguments:   m.Spec.Args(),
		Option: kservice.KeyValue{
			"UserService":   m.Spec.User,
			"SystemdScript": SystemdUnit(m.Spec),
			"LaunchdConfig": LaunchdPlist(m.Spec),
			"OnFailure":     "restart",
		},
	}
	if !m.Spec.User && m.Spec.RunAs != "" {
		cfg.UserName = m.Spec.RunAs
	}
	return kservice.New(nil, cfg)
}

// Do carries out action and returns what to tell the user.
func (m *Manager) Do(action Action) (string, error) {
	if err := m.check(action); err != nil {
		return "", err
	}
	s, err := m.service()
	if err != nil {
		return "", fmt.Errorf("preparing the service: %w", err)
	}
	switch action {
	case Status:
		st, err := s.Status()
		switch {
		case errors.Is(err, kservice.ErrNotInstalled):
			return "not installed", nil
		case err != nil:
			return "", fmt.Errorf("asking %s: %w", m.Platform, err)
		}
		return statusWord(st), nil
	case Install:
		if err := s.Install(); err != nil {
			return "", fmt.Errorf("installing the %s service: %w", m.Platform, err)
		}
		return m.installedMessage(), nil
	case Uninstall:
		_ = s.Stop() // it may not be running
		if err := s.Uninstall(); err != nil {
			return "", fmt.Errorf("uninstalling: %w", err)
		}
		return "uninstalled", nil
	case Start, Restart:
		if action == Start {
			err = s.Start()
		} else {
			err = s.Restart()
		}
		if err != nil {
			return "", fmt.Errorf("%s: %w", action, err)
		}
		return m.waitRunning(s)
	case Stop:
		if err := s.Stop(); err != nil {
			return "", fmt.Errorf("stopping: %w", err)
		}
		return "stopped", nil
	default:
		return "", fmt.Errorf("unknown service action %q", action)
	}
}

// waitRunning reports success only once the manager says the service runs.
func (m *Manager) waitRunning(s kservice.Service) (string, error) {
	deadline := time.Now().Add(m.Wait)
	for {
		st, err := s.Status()
		if err == nil && st == kservice.StatusRunning {
			return "running", nil
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("the service did not reach running within %v (status: %s); see its logs: %s", m.Wait, statusWord(st), m.LogsHint())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func statusWord(st kservice.Status) string {
	switch st {
	case kservice.StatusRunning:
		return "running"
	case kservice.StatusStopped:
		return "stopped"
	default:
		return "unknown"
	}
}

func (m *Manager) installedMessage() string {
	msg := "installed; start it with: daybook service start"
	if m.Spec.User && m.Platform == "linux-systemd" {
		msg += fmt.Sprintf("%s\nA user service runs while you are logged in; to start it at boot run: loginctl enable-linger %s", userFlag(m.Spec.User), currentUser())
	}
	return msg
}

func userFlag(user bool) string {
	if user {
		return " --user"
	}
	return ""
}

// LogsHint says where the service's logs are on this platform.
func (m *Manager) LogsHint() string {
	switch m.Platform {
	case "linux-systemd":
		if m.Spec.User {
			return "journalctl --user -u " + m.Spec.Name + " -f"
		}
		return "journalctl -u " + m.Spec.Name + " -f"
	case "darwin-launchd":
		return "tail -f " + filepath.Join(m.Spec.LogDir, "daybook.err.log")
	case "windows-service":
		return "the Windows Event Log (Application)"
	default:
		return "the daemon's standard error"
	}
}
