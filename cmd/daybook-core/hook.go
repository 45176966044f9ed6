package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/adapters/hooks"
	"github.com/daybook/daybook/internal/front"
)

// captureTimeout bounds a capture: reading the transcript and writing its
// new turns, within the minute Claude Code gives the hook (hooks.Install).
const captureTimeout = 45 * time.Second

func cmdHook() command {
	return command{
		name: "hook", args: "session-start|prompt|capture | install claude-code [--write] [--settings FILE]",
		summary: "answer an agent's hook (Claude Code): context in, the session's turns remembered",
		help: `Claude Code runs these with its hook's JSON on stdin (docs/agents.md):
  session-start  (SessionStart) prints the context block of the session: the
                 foundation, the summaries and the recent entries, within
                 hooks.budget tokens.
  prompt         (UserPromptSubmit) prints the block for the user's prompt,
                 within hooks.prompt_budget tokens; nothing when recall finds
                 nothing for it, or the prompt has no words of its own.
  capture        (Stop, PreCompact, SessionEnd) reads the transcript that
                 transcript_path names and remembers the user's prompts and
                 the assistant's final answers as entries of their own time,
                 tagged #claude-code, #session-ID and #project-NAME; a second
                 capture of the same transcript adds nothing. Tool calls,
                 tool output, thinking, system reminders and slash commands
                 are left out, and what looks like a secret is removed.
Each answers through the running daemon, waiting at most hooks.timeout for a
context; without a daemon it prints nothing, and a capture is kept in
DATA_DIR/state/hooks/spool.jsonl, written by the next capture or by the
daemon at its start. A hook never fails the agent: it exits 0, with any
problem on stderr. Capture is off with hooks.capture: false, for a project
with a .daybook-nocapture file in its folder or one above, and with
$DAYBOOK_NOCAPTURE=1.
install claude-code prints the "hooks" block of ~/.claude/settings.json that
runs this daybook; --write merges it into the file (--settings FILE for
another), keeping every other setting and hook and the old file as
FILE.daybook.bak.`,
		run: runHook,
	}
}

func runHook(ctx context.Context, e *env, args []string) error {
	if len(args) > 0 && args[0] == "install" {
		return runHookInstall(e, args[1:])
	}
	fs := e.newFlags("hook")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		// Not a usage error: exit code 2 from a UserPromptSubmit hook would
		// block the user's prompt.
		return fmt.Errorf("hook takes one event: session-start, prompt or capture (or install claude-code)")
	}
	switch pos[0] {
	case "session-start", "prompt":
		hookContext(ctx, e, pos[0])
	case "capture":
		hookCapture(ctx, e)
	default:
		return fmt.Errorf("hook: unknown event %q: want session-start, prompt or capture (or install claude-code)", pos[0])
	}
	return nil
}

// hookWarn reports a problem of a hook on stderr, which Claude Code shows
// in its transcript and debug log, never to the model.
func hookWarn(e *env, format string, args ...any) {
	fmt.Fprintf(e.stderr, "daybook: hook: "+format+"\n", args...)
}

// hookService is what answers a hook: the daemon's App when the daemon runs
// the hook for the front, else the daemon's socket; nil when no daemon
// serves the data dir in time. It never opens the files itself, so that a
// hook without a daemon builds no index.
func hookService(ctx context.Context, e *env) api.Service {
	if e.served != nil {
		if !sameDir(e.absDir, e.servedDir) {
			e.refused = true
			return nil
		}
		return e.served
	}
	if _, err := os.Stat(e.absDir); err != nil {
		return nil
	}
	c, why, err := dialDaemon(ctx, e)
	if err != nil || c == nil {
		if err != nil {
			why = err.Error()
		}
		e.logger().Debug("hook: no daemon answers", "why", why)
		return nil
	}
	return c
}

// hookInput reads the hook's JSON from stdin and loads the config; false,
// with the reason on stderr, when either fails.
func hookInput(e *env) (hooks.Input, bool) {
	in, err := hooks.ReadInput(e.stdin)
	if err == nil {
		err = e.load()
	}
	if err != nil {
		hookWarn(e, "%v", err)
		return hooks.Input{}, false
	}
	return in, true
}

// hookContext answers session-start or prompt: the block as Claude Code's
// additionalContext, or nothing.
func hookContext(ctx context.Context, e *env, event string) {
	in, ok := hookInput(e)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, e.cfg.Hooks.Timeout)
	defer cancel()
	s := hookService(ctx, e)
	if s == nil {
		return
	}
	var md, name string
	var err error
	if event == "session-start" {
		name = "SessionStart"
		md, err = hooks.SessionContext(ctx, s, e.cfg.Hooks.Budget)
	} else {
		name = "UserPromptSubmit"
		md, _, err = hooks.PromptContext(ctx, s, in.Prompt, e.cfg.Hooks.PromptBudget)
	}
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			hookWarn(e, "the daemon did not answer within hooks.timeout (%s); no context this time", e.cfg.Hooks.Timeout)
		} else {
			hookWarn(e, "%v", err)
		}
		return
	}
	if md == "" {
		return
	}
	if err := hooks.WriteContext(e.stdout, name, md); err != nil {
		hookWarn(e, "%v", err)
	}
}

// hookCapture answers Stop, PreCompact and SessionEnd.
func hookCapture(ctx context.Context, e *env) {
	in, ok := hookInput(e)
	if !ok {
		return
	}
	log := e.logger()
	if !e.cfg.Hooks.Capture {
		log.Debug("hook: capture is off (hooks.capture: false)")
		return
	}
	if why := hooks.NoCapture(in.Cwd, e.osEnv.Getenv); why != "" {
		log.Debug("hook: capture is off for this project", "why", why)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, captureTimeout)
	defer cancel()
	dialCtx, cancelDial := context.WithTimeout(ctx, e.cfg.Hooks.Timeout)
	s := hookService(dialCtx, e)
	cancelDial()
	if e.refused {
		return
	}
	var w hooks.Importer
	if s != nil {
		w = s
	}
	res, err := hooks.Capture(ctx, w, in, hooks.CaptureOptions{
		Dir: e.absDir, MaxText: e.cfg.Hooks.MaxText, Final: in.HookEventName != "PreCompact",
		Warn: func(msg string) { hookWarn(e, "%s", msg) },
	})
	if err != nil {
		hookWarn(e, "capture: %v", err)
		return
	}
	log.Debug("hook: captured", "turns", res.Turns, "new", res.New, "added", res.Added, "skipped", res.Skipped,
		"spooled", res.Spooled, "drained", res.Drained)
}

// runHookInstall prints, or with --write merges, Claude Code's hooks.
func runHookInstall(e *env, args []string) error {
	fs := e.newFlags("hook")
	write := fs.Bool("write", false, "merge the hooks into the settings file instead of printing them")
	settings := fs.String("settings", "", "Claude Code's settings file (default ~/.claude/settings.json)")
	bin := fs.String("bin", "", "the daybook the hooks run, as the hook's shell finds it (default: the front, daybook, beside this one, by its absolute path)")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || pos[0] != "claude-code" {
		return usagef("hook install takes the agent: claude-code")
	}
	command, err := hookCommand(e, *bin)
	if err != nil {
		return err
	}
	if !*write {
		_, err := e.stdout.Write(hooks.SettingsJSON(command))
		return err
	}
	path := *settings
	if path == "" {
		home, err := e.osEnv.HomeDir()
		if err != nil {
			return fmt.Errorf("finding ~/.claude/settings.json: %w (give --settings)", err)
		}
		path = filepath.Join(home, ".claude", "settings.json")
	}
	return hooks.Install(path, command, e.stdout)
}

// hookCommand is the command line the hooks run: bin, else the front
// daybook beside this binary (it hands the hooks to the daemon without
// starting this one), with --dir and --config when they were given.
func hookCommand(e *env, bin string) (string, error) {
	if bin == "" {
		exe, err := os.Executable()
		if err != nil {
			return "", fmt.Errorf("finding this daybook: %w (give --bin)", err)
		}
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		bin = exe
		if f := filepath.Join(filepath.Dir(exe), "daybook"); filepath.Base(exe) == front.Core && fileExists(f) {
			bin = f
		}
	}
	cmd := hooks.ShellQuote(bin) // as given: "daybook" is looked up on the PATH of Claude Code's shell
	if e.dir != "" {
		dir, err := filepath.Abs(e.dir)
		if err != nil {
			return "", err
		}
		cmd += " --dir " + hooks.ShellQuote(dir)
	}
	if e.configPath != "" {
		cfg, err := filepath.Abs(e.configPath)
		if err != nil {
			return "", err
		}
		cmd += " --config " + hooks.ShellQuote(cfg)
	}
	return cmd, nil
}

func fileExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir()
}
