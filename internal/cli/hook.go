package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/adapters/api/apiclient"
	"github.com/daybook/daybook/internal/adapters/hooks"
	"github.com/daybook/daybook/internal/launch"
)

// captureTimeout bounds a capture: reading the transcript and writing its
// new turns, within the minute Claude Code gives the hook (hooks.Install).
const captureTimeout = 45 * time.Second

// CmdHook answers an agent's hooks. It runs in the front as in
// daybook-core, on the daemon's socket only: without a daemon it starts one
// (launch), and until it answers a context hook says so and a capture is
// spooled, so that no hook opens the files, builds an index or falls
// through to daybook-core.
func CmdHook() Command {
	return Command{
		Name: "hook", Args: "session-start|prompt|capture | install claude-code [--write] [--settings FILE]",
		Summary: "answer an agent's hook (Claude Code): context in, the session's turns remembered",
		Help: `Claude Code runs these with its hook's JSON on stdin (docs/agents.md):
  session-start  (SessionStart) prints the context block of the session: the
                 foundation, the summaries and the recent entries, within
                 hooks.budget tokens; the session holds it from then on
                 (again after resume, clear and compact).
  prompt         (UserPromptSubmit) prints the block for the user's prompt,
                 within hooks.prompt_budget tokens, without what the session
                 holds already (the foundation, items of earlier blocks);
                 nothing when recall finds nothing new for it, or the prompt
                 has no words of its own.
  capture        (Stop, PreCompact, SessionEnd) reads the transcript that
                 transcript_path names and remembers the user's prompts and
                 the assistant's final answers as entries of their own time,
                 tagged #claude-code, #session-ID and #project-NAME; a second
                 capture of the same transcript adds nothing. Tool calls,
                 tool output, thinking, system reminders and the output of
                 slash commands (a command is the question of its answer)
                 are left out, and what looks like a secret is removed.
Each answers through the daemon of the data dir, waiting at most
hooks.timeout for a context. Without one it starts one (detached; its log in
DATA_DIR/state/daemon/daemon.log; one however many hooks race) and asks it
within the same hooks.timeout; when it cannot answer yet, a context hook says
so in one line. DAYBOOK_AUTOSTART=0 turns that off: a context hook then
prints nothing. A capture no daemon took is kept in the spool,
DATA_DIR/state/spool/spool.jsonl, which the daemon writes at its start and
every minute (daybook spool shows it). A hook never fails the agent: it exits 0, with any
problem on stderr. Capture is off with hooks.capture: false, for a project
with a .daybook-nocapture file in its folder or one above, and with
$DAYBOOK_NOCAPTURE=1.
install claude-code prints the "hooks" block of ~/.claude/settings.json that
runs this daybook; --write merges it into the file (--settings FILE for
another), keeping every other setting and hook and the old file as
FILE.daybook.bak.`,
		Run: runHook,
	}
}

func runHook(ctx context.Context, e *Env, args []string) error {
	if len(args) > 0 && args[0] == "install" {
		return runHookInstall(e, args[1:])
	}
	fs := e.NewFlags("hook")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		// Not a usage error: exit code 2 from a UserPromptSubmit hook would
		// block the user's prompt.
		return fmt.Errorf("hook takes one event: session-start, prompt or capture (or install claude-code)")
	}
	// A config the front cannot read goes, with the hook's input unread, to
	// daybook-core (ErrFullConfig); any other problem is the hook's to say.
	if err := e.Load(); errors.Is(err, ErrFullConfig) {
		return err
	}
	switch pos[0] {
	case hooks.ArgSessionStart, hooks.ArgPrompt:
		hookContext(ctx, e, pos[0])
	case hooks.ArgCapture:
		hookCapture(ctx, e)
	default:
		return fmt.Errorf("hook: unknown event %q: want session-start, prompt or capture (or install claude-code)", pos[0])
	}
	return nil
}

// hookWarn reports a problem of a hook on stderr, which Claude Code shows
// in its transcript and debug log, never to the model.
func hookWarn(e *Env, format string, args ...any) {
	fmt.Fprintf(e.Stderr, "daybook: hook: "+format+"\n", args...)
}

// hookClient returns a client of the daemon's socket for e's data dir, or
// nil when the data dir or the socket is not there. Every request names the
// data dir, so that a daemon serving another refuses it (daybook.CodeOtherDir)
// before any work. A hook never opens the files itself: without a daemon
// it builds no index.
func hookClient(e *Env) *apiclient.Client {
	if _, err := os.Stat(e.AbsDir); err != nil {
		return nil
	}
	if fi, err := os.Lstat(e.Socket()); err != nil || fi.Mode().Type() != os.ModeSocket {
		return nil
	}
	return apiclient.New(e.Socket()).ForDir(e.AbsDir)
}

// hookInput reads the hook's JSON from stdin and loads the config; false,
// with the reason on stderr, when either fails.
func hookInput(e *Env) (hooks.Input, bool) {
	in, err := hooks.ReadInput(e.Stdin)
	if err == nil {
		err = e.Load()
	}
	if err != nil {
		hookWarn(e, "%v", err)
		return hooks.Input{}, false
	}
	return in, true
}

// hookContext answers session-start or prompt: the block as Claude Code's
// additionalContext, or nothing. It asks the daemon directly, one round
// trip, within hooks.timeout.
func hookContext(ctx context.Context, e *Env, event string) {
	in, ok := hookInput(e)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, e.Cfg.Hooks.Timeout)
	defer cancel()
	name := "UserPromptSubmit"
	if event == "session-start" {
		name = "SessionStart"
	}
	// Without a daemon, start one (within the same hooks.timeout); when it
	// cannot answer in time, say so in one line of context.
	started := hookAutostart(ctx, e, "hook "+event)
	note := func() {
		if started.State == launch.Started || started.State == launch.Starting {
			if err := hooks.WriteContext(e.Stdout, name, startingNote(started)); err != nil {
				hookWarn(e, "%v", err)
			}
		}
	}
	c := hookClient(e)
	if c == nil {
		e.Logger().Debug("hook: no daemon socket; no context", "socket", e.Socket())
		note()
		return
	}
	defer c.Close()
	// What the session holds already (docs/agents.md, "A session's
	// budget"): without a session id, every block is whole.
	var sess *hooks.Session
	now := time.Now()
	if in.SessionID != "" {
		s, err := hooks.LoadSession(e.AbsDir, in.SessionID)
		if err != nil {
			hookWarn(e, "%v; this block is whole", err)
		}
		sess = s
	}
	var md string
	var err error
	if event == hooks.ArgSessionStart {
		hooks.ExpireSessions(e.AbsDir, now)
		md, err = hooks.SessionContext(ctx, c, e.Cfg.Hooks.Budget, sess, in.Source, now)
	} else {
		md, _, err = hooks.PromptContext(ctx, c, in.Prompt, e.Cfg.Hooks.PromptBudget, sess)
	}
	if err == nil && sess != nil {
		if serr := sess.Save(now); serr != nil {
			hookWarn(e, "%v", serr)
		}
	}
	switch {
	case err == nil:
	case Unanswered(err):
		e.Logger().Debug("hook: no daemon answers for this data dir; no context", "socket", e.Socket(), "err", err)
		note()
		return
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		hookWarn(e, "the daemon did not answer within hooks.timeout (%s); no context this time", e.Cfg.Hooks.Timeout)
		if started.State == launch.Started || started.State == launch.Starting {
			note()
		} else if up, ok := youngDaemon(c); ok {
			// Started a moment ago, by an earlier hook: still building.
			if err := hooks.WriteContext(e.Stdout, name, stillStartingNote(up)); err != nil {
				hookWarn(e, "%v", err)
			}
		}
		return
	default:
		hookWarn(e, "%v", err)
		return
	}
	if md == "" {
		return
	}
	if err := hooks.WriteContext(e.Stdout, name, md); err != nil {
		hookWarn(e, "%v", err)
	}
}

// hookCapture answers Stop, PreCompact and SessionEnd: the new turns go to
// the daemon that answers for the data dir within hooks.timeout, else to
// the spool.
func hookCapture(ctx context.Context, e *Env) {
	in, ok := hookInput(e)
	if !ok {
		return
	}
	log := e.Logger()
	if !e.Cfg.Hooks.Capture {
		log.Debug("hook: capture is off (hooks.capture: false)")
		return
	}
	if why := hooks.NoCapture(in.Cwd, e.OSEnv.Getenv); why != "" {
		log.Debug("hook: capture is off for this project", "why", why)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, captureTimeout)
	defer cancel()
	var w hooks.Importer
	dialCtx, cancelDial := context.WithTimeout(ctx, e.Cfg.Hooks.Timeout)
	hookAutostart(dialCtx, e, "hook capture")
	cancelDial()
	if _, err := os.Stat(e.AbsDir); err == nil {
		dialCtx, cancelDial := context.WithTimeout(ctx, e.Cfg.Hooks.Timeout)
		c, why, err := DialDaemon(dialCtx, e)
		cancelDial()
		if err != nil {
			why = err.Error()
		}
		if c != nil {
			defer c.Close()
			w = c
		} else {
			log.Debug("hook: no daemon answers; the capture goes to the spool", "why", why)
		}
	}
	res, err := hooks.Capture(ctx, w, in, hooks.CaptureOptions{
		Dir: e.AbsDir, MaxText: e.Cfg.Hooks.MaxText, Final: in.HookEventName != hooks.EventPreCompact,
		Warn: func(msg string) { hookWarn(e, "%s", msg) },
	})
	if err != nil {
		hookWarn(e, "capture: %v", err)
		return
	}
	log.Debug("hook: captured", "turns", res.Turns, "new", res.New, "added", res.Added, "skipped", res.Skipped,
		"spooled", res.Spooled)
}

// youngTimeout bounds the status a hook asks after its context timed out;
// youngFor is how long after its start a daemon that does not answer in
// time is taken to be building its index.
const (
	youngTimeout = 300 * time.Millisecond
	youngFor     = 10 * time.Minute
)

// youngDaemon reports how long the daemon behind c has run, when that is
// less than youngFor: its status answers at once, even while it builds its
// index.
func youngDaemon(c *apiclient.Client) (time.Duration, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), youngTimeout)
	defer cancel()
	st, err := c.Status(ctx, daybook.StatusRequest{Brief: true})
	if err != nil || st.Daemon.Started.IsZero() {
		return 0, false
	}
	up := time.Since(st.Daemon.Started)
	return up, up < youngFor
}

// hookAutostart starts the daemon when none listens, within ctx; a
// problem goes to stderr, and the hook goes on without a daemon.
func hookAutostart(ctx context.Context, e *Env, by string) launch.Result {
	res, err := Autostart(ctx, e, by, e.Cfg.Hooks.Timeout)
	if err != nil {
		hookWarn(e, "%v", err)
	}
	return res
}

// runHookInstall prints, or with --write merges, Claude Code's hooks.
func runHookInstall(e *Env, args []string) error {
	fs := e.NewFlags("hook")
	write := fs.Bool("write", false, "merge the hooks into the settings file instead of printing them")
	settings := fs.String("settings", "", "Claude Code's settings file (default ~/.claude/settings.json)")
	bin := fs.String("bin", "", "the daybook the hooks run, as the hook's shell finds it (default: the front, daybook, by its absolute path)")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || pos[0] != "claude-code" {
		return Usagef("hook install takes the agent: claude-code")
	}
	command, err := hookCommand(e, *bin)
	if err != nil {
		return err
	}
	if !*write {
		_, err := e.Stdout.Write(hooks.SettingsJSON(command))
		return err
	}
	path := *settings
	if path == "" {
		home, err := e.OSEnv.HomeDir()
		if err != nil {
			return fmt.Errorf("finding ~/.claude/settings.json: %w (give --settings)", err)
		}
		path = filepath.Join(home, ".claude", "settings.json")
	}
	return hooks.Install(path, command, e.Stdout)
}

// hookCommand is the command line the hooks run: bin, else the front
// daybook (this binary, or the one beside daybook-core), which answers the
// hooks without starting daybook-core, with --dir and --config when they
// were given.
func hookCommand(e *Env, bin string) (string, error) {
	if bin == "" {
		exe, err := os.Executable()
		if err != nil {
			return "", fmt.Errorf("finding this daybook: %w (give --bin)", err)
		}
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		bin = exe
		if strings.TrimSuffix(filepath.Base(exe), ".exe") == "daybook-core" {
			front := filepath.Join(filepath.Dir(exe), "daybook")
			if runtime.GOOS == "windows" {
				front += ".exe"
			}
			if fi, err := os.Stat(front); err == nil && !fi.IsDir() {
				bin = front
			}
		}
	}
	cmd := hooks.ShellQuote(bin) // as given: "daybook" is looked up on the PATH of Claude Code's shell
	if e.Dir != "" {
		dir, err := filepath.Abs(e.Dir)
		if err != nil {
			return "", err
		}
		cmd += " --dir " + hooks.ShellQuote(dir)
	}
	if e.ConfigPath != "" {
		cfg, err := filepath.Abs(e.ConfigPath)
		if err != nil {
			return "", err
		}
		cmd += " --config " + hooks.ShellQuote(cfg)
	}
	return cmd, nil
}
