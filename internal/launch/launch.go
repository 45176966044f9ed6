package launch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/daybook/daybook/internal/adapters/api/apiclient"
	"github.com/daybook/daybook/internal/util/filelock"
)

// Environment variables.
const (
	// EnvAutostart set to 0, off, false or no turns autostart off: the
	// hooks, mcp and chat then work as if it did not exist (without a
	// daemon a hook prints nothing and spools).
	EnvAutostart = "DAYBOOK_AUTOSTART"
	// EnvStartedBy tells the daemon who started it ("hook prompt", "mcp"),
	// for "daybook status".
	EnvStartedBy = "DAYBOOK_STARTED_BY"
	// envLockFD names the descriptor of the autostart lock the daemon
	// inherited; Listening closes it.
	envLockFD = "DAYBOOK_AUTOSTART_LOCK_FD"
)

// Files under the data dir.
const (
	StateDir = "state/daemon"   // relative to the data dir
	LockName = "autostart.lock" // held while a daemon is being started
	LogName  = "daemon.log"     // an autostarted daemon's stdout and stderr
	logKeep  = 8 << 20          // bytes: a longer log is moved to daemon.log.1 at the next start
	dialWait = 250 * time.Millisecond
	pollStep = 15 * time.Millisecond
)

// Options say which daemon to start and how.
type Options struct {
	Dir    string // the data dir, absolute
	Socket string // the socket its daemon listens on
	Config string // the --config given to the command, or ""
	By     string // the command that starts it: "hook prompt", "mcp", "chat"
	// Core is the program that runs "daemon": "" is daybook-core beside
	// this executable (or this executable when it is daybook-core).
	Core string
	// Getenv reads the environment (os.Getenv when nil).
	Getenv func(string) string
}

// State says what Ensure found or did.
type State int

const (
	// Off: autostart is turned off ($DAYBOOK_AUTOSTART=0); nothing was done.
	Off State = iota
	// Running: something already listened on the socket.
	Running
	// Started: this call started a daemon, and it listens.
	Started
	// Starting: a daemon was started, by this call or a racing one, and
	// did not listen yet when ctx ended.
	Starting
)

func (s State) String() string {
	switch s {
	case Off:
		return "off"
	case Running:
		return "running"
	case Started:
		return "started"
	case Starting:
		return "starting"
	default:
		return fmt.Sprintf("State(%d)", int(s))
	}
}

// Result is Ensure's answer.
type Result struct {
	State State
	PID   int    // the daemon this call started, or 0
	Log   string // its log file, when this call started one
}

// Disabled reports whether getenv turns autostart off.
func Disabled(getenv func(string) string) bool {
	switch strings.ToLower(strings.TrimSpace(getenv(EnvAutostart))) {
	case "0", "off", "false", "no":
		return true
	}
	return false
}

// Ensure makes sure a daemon listens on o.Socket for o.Dir: when nothing
// listens there it starts one, unless another process is starting one
// already, and waits until the socket listens or ctx ends. It never starts
// a second daemon: the autostart lock serialises the starters, and the
// daemon it starts keeps the lock until its socket listens. Something
// already listening on the socket (a daemon of another data dir included)
// is left alone: Running.
func Ensure(ctx context.Context, o Options) (Result, error) {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if Disabled(o.Getenv) {
		return Result{State: Off}, nil
	}
	if Listens(o.Socket) {
		return Result{State: Running}, nil
	}
	state := filepath.Join(o.Dir, StateDir)
	if err := os.MkdirAll(state, 0o700); err != nil {
		return Result{}, fmt.Errorf("autostart: creating %s: %w", state, err)
	}
	lockPath := filepath.Join(state, LockName)
	lf, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return Result{}, fmt.Errorf("autostart: opening %s: %w", lockPath, err)
	}
	defer lf.Close()
	// Another starter, or the daemon it started, holds the lock until the
	// socket listens: wait for either.
	for {
		err := filelock.TryLock(lf)
		if err == nil {
			break
		}
		if !errors.Is(err, filelock.ErrBusy) {
			return Result{}, fmt.Errorf("autostart: locking %s: %w", lockPath, err)
		}
		if Listens(o.Socket) {
			return Result{State: Running}, nil
		}
		if !sleep(ctx, pollStep) {
			return Result{State: Starting}, nil
		}
	}
	if Listens(o.Socket) {
		return Result{State: Running}, nil // started by the one that held the lock
	}
	res, exited, err := spawn(o, lf, state)
	if err != nil {
		return Result{}, err
	}
	// The daemon holds the lock now; let go of ours.
	lf.Close()
	for {
		if Listens(o.Socket) {
			res.State = Started
			return res, nil
		}
		select {
		case err := <-exited:
			return res, fmt.Errorf("autostart: the daemon started for %s exited before it listened (%v); its log: %s%s",
				o.Dir, err, res.Log, lastLine(res.Log))
		default:
		}
		if !sleep(ctx, pollStep) {
			res.State = Starting
			return res, nil
		}
	}
}

// spawn starts "CORE daemon --dir DIR" detached, with the lock as its
// descriptor 3. The channel receives its exit when it ends.
func spawn(o Options, lock *os.File, state string) (Result, <-chan error, error) {
	core := o.Core
	if core == "" {
		var err error
		if core, err = Core(); err != nil {
			return Result{}, nil, fmt.Errorf("autostart: %w", err)
		}
	}
	logPath := filepath.Join(state, LogName)
	if fi, err := os.Stat(logPath); err == nil && fi.Size() > logKeep {
		os.Rename(logPath, logPath+".1")
	}
	logf, err := os.OpenFile(logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return Result{}, nil, fmt.Errorf("autostart: opening the daemon's log: %w", err)
	}
	defer logf.Close()
	fmt.Fprintf(logf, "--- %s: started by daybook %s (pid %d)\n", time.Now().Format(time.RFC3339), o.By, os.Getpid())
	args := []string{"daemon", "--dir", o.Dir}
	if o.Config != "" {
		args = append(args, "--config", o.Config)
	}
	cmd := exec.Command(core, args...)
	cmd.Dir = o.Dir // not the agent's project folder, which the daemon would keep busy
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Env = append(cleanEnv(os.Environ()), EnvStartedBy+"="+o.By)
	detach(cmd, lock)
	if err := cmd.Start(); err != nil {
		return Result{}, nil, fmt.Errorf("autostart: starting %s daemon: %w", core, err)
	}
	exited := make(chan error, 1)
	// Reaped here, so that a long-lived caller (mcp) leaves no zombie.
	go func() { exited <- cmd.Wait() }()
	return Result{PID: cmd.Process.Pid, Log: logPath}, exited, nil
}

// cleanEnv drops what a starter inherited from an earlier autostart.
func cleanEnv(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if strings.HasPrefix(kv, EnvStartedBy+"=") || strings.HasPrefix(kv, envLockFD+"=") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// Listening is called by the daemon once its socket listens: it closes the
// autostart lock it inherited, so that the starters waiting on it find the
// socket. It does nothing in a daemon started otherwise.
func Listening() {
	if os.Getenv(envLockFD) != "3" {
		return
	}
	os.Unsetenv(envLockFD)
	if f := os.NewFile(3, LockName); f != nil {
		f.Close()
	}
}

// StartedBy says how this daemon process was started, for "daybook
// status": "autostart by daybook hook prompt", "service", or "by hand".
// service says whether a service manager runs it.
func StartedBy(service bool) string {
	switch by := os.Getenv(EnvStartedBy); {
	case by != "":
		return "autostart by daybook " + by
	case service || os.Getenv("INVOCATION_ID") != "" || launchdJob():
		return "service"
	default:
		return "by hand"
	}
}

// launchdJob reports whether launchd runs this process as a job.
func launchdJob() bool {
	v := os.Getenv("XPC_SERVICE_NAME")
	return runtime.GOOS == "darwin" && v != "" && v != "0"
}

// Listens reports whether something accepts connections on the socket.
func Listens(socket string) bool {
	fi, err := os.Lstat(socket)
	if err != nil || fi.Mode().Type() != os.ModeSocket {
		return false
	}
	return apiclient.Listens(socket, dialWait)
}

// Core returns daybook-core beside this executable, or this executable
// when it is daybook-core: the two are built and installed together.
func Core() (string, error) {
	name := "daybook-core"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding %s: %w", name, err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	if filepath.Base(exe) == name {
		return exe, nil
	}
	core := filepath.Join(filepath.Dir(exe), name)
	if _, err := os.Stat(core); err != nil {
		return "", fmt.Errorf("no %s beside %s to run the daemon: build the two together (go install ./cmd/...)", name, exe)
	}
	return core, nil
}

// lastLine returns ": " and the log's last line, or "".
func lastLine(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if l := lines[len(lines)-1]; l != "" {
		return ": " + l
	}
	return ""
}

// sleep waits d, or until ctx ends: false then.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// WaitStarting waits until no daemon is being started for the data dir
// dir: until the autostart lock is free (the daemon started listens, or
// died), or ctx ends. "daybook daemon stop" waits so, to stop a daemon a
// hook has just started.
func WaitStarting(ctx context.Context, dir string) {
	f, err := os.OpenFile(filepath.Join(dir, StateDir, LockName), os.O_RDWR, 0)
	if err != nil {
		return // never started by a hook
	}
	defer f.Close()
	for filelock.TryLock(f) != nil {
		if !sleep(ctx, pollStep) {
			return
		}
	}
}
