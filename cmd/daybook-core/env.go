package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/util/date"
)

// errHelpShown ends a command after -h printed its usage.
var errHelpShown = errors.New("help shown")

// env is what every command gets: standard streams, the global flags, and
// the config and App built from them on first use.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	osEnv          config.Env

	dir, configPath string
	verbose         bool
	flagsOnly       bool // -h prints only the flags: "daybook help NAME" printed the rest

	loaded bool
	cfg    config.Config
	absDir string
	app    *app.App

	// served is set when a daemon runs this command for the front: the
	// daemon's own App, for its data dir servedDir, used in place of a
	// client of the socket and never closed here.
	served    api.Service
	servedDir string
	refused   bool // the command named another data dir than servedDir
}

func newEnv(stdin io.Reader, stdout, stderr io.Writer) *env {
	return &env{stdin: stdin, stdout: stdout, stderr: stderr, osEnv: config.OSEnv()}
}

// globalFlags adds --dir, --config and -v to fs, so that they may stand
// before or after the command name.
func (e *env) globalFlags(fs *flag.FlagSet) {
	fs.StringVar(&e.dir, "dir", e.dir, "data dir (default $DAYBOOK_DIR, $XDG_DATA_HOME/daybook or ~/.local/share/daybook)")
	fs.StringVar(&e.configPath, "config", e.configPath, "config file (default $DAYBOOK_CONFIG or $XDG_CONFIG_HOME/daybook/config.yaml)")
	fs.BoolVar(&e.verbose, "v", e.verbose, "log debug lines to stderr")
}

// parseGlobal parses the global flags before the command name.
func (e *env) parseGlobal(args []string) ([]string, error) {
	fs := flag.NewFlagSet("daybook", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	e.globalFlags(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return []string{"help"}, nil
		}
		return nil, usagef("%v", err)
	}
	return fs.Args(), nil
}

// newFlags returns a FlagSet for command c with the global flags on it.
func (e *env) newFlags(c string) *flag.FlagSet {
	fs := flag.NewFlagSet(c, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	e.globalFlags(fs)
	return fs
}

// parse parses args with fs, allowing flags after positional arguments
// ("daybook remember TEXT --kind fact"), and returns the positional ones.
// "--" ends the flags. -h prints the command's help.
func (e *env) parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		// A relative date such as -3d or -2w is an argument, not a flag.
		if len(args) > 0 && date.IsRelative(args[0]) {
			pos = append(pos, args[0])
			args = args[1:]
			continue
		}
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				if c, ok := lookup(fs.Name()); ok && !e.flagsOnly {
					printSynopsis(e.stdout, c)
				}
				printFlags(e.stdout, fs)
				return nil, errHelpShown
			}
			if strings.Contains(err.Error(), "not defined") || strings.Contains(err.Error(), "bad flag syntax") {
				return nil, usagef("%s: %v (an argument that starts with \"-\" goes after \"--\": daybook %s [FLAGS] -- \"-- text\")",
					fs.Name(), err, fs.Name())
			}
			return nil, usagef("%s: %v", fs.Name(), err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		// fs.Parse stops at the first positional argument or after "--".
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// load resolves the data dir and config once.
func (e *env) load() error {
	if e.loaded {
		return nil
	}
	dir, err := e.osEnv.DataDir(e.dir)
	if err != nil {
		return err
	}
	path, required, err := e.osEnv.ConfigPath(e.configPath)
	if err != nil {
		return err
	}
	cfg, err := config.Load(path, required)
	if err != nil {
		return err
	}
	e.absDir, e.cfg, e.loaded = dir, cfg, true
	warnForeignOwner(e)
	return nil
}

// logger returns the CLI's logger: warnings to stderr, debug with -v.
func (e *env) logger() *slog.Logger {
	level := slog.LevelWarn
	if e.verbose {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))
}

// local returns the App that works on the files directly.
func (e *env) local() (*app.App, error) {
	if e.app != nil {
		return e.app, nil
	}
	if e.served != nil {
		return nil, errors.New("a command the daemon runs for the front opened the files itself (a bug: it must go through the daemon)")
	}
	if err := e.load(); err != nil {
		return nil, err
	}
	e.app = app.NewWith(e.absDir, e.cfg, e.logger(), app.Options{IndexProgress: e.firstIndexBuild()})
	return e.app, nil
}

// firstIndexBuild returns the progress bar a terminal shows while the
// first command that needs the index builds it (a first use, or an index
// of an earlier daybook's format): seconds on a few years of day files,
// which would otherwise pass in silence; nil when the index need not be
// built or stderr is no terminal. Later catch-ups read only what changed
// and show nothing.
func (e *env) firstIndexBuild() func(done, total int) {
	if !isTerminal(e.stderr) {
		return nil
	}
	if !index.Rebuilds(filepath.Join(e.absDir, app.IndexDir)) {
		return nil
	}
	var bar *progressbar.ProgressBar
	return func(done, total int) {
		if bar == nil {
			if total < 50 {
				return // quick: no bar for a handful of files
			}
			bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(e.stderr),
				progressbar.OptionSetDescription("building the search index (first use)"), progressbar.OptionShowCount(),
				progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish())
		}
		bar.ChangeMax(total)
		bar.Set(done)
		if done == total {
			bar.Finish()
		}
	}
}

// backend returns what carries out the operations: the daemon over its
// socket when one answers for this data dir, else the App on the files.
// Cancelling ctx stops the wait for the daemon's answer.
func (e *env) backend(ctx context.Context) (api.Service, error) {
	if err := e.load(); err != nil {
		return nil, err
	}
	if e.served != nil {
		if !sameDir(e.absDir, e.servedDir) {
			e.refused = true
			return nil, errOtherDir
		}
		return e.served, nil
	}
	c, _, err := dialDaemon(ctx, e)
	if err != nil {
		return nil, err
	}
	if c != nil {
		return c, nil
	}
	return e.local()
}

// reader is backend for a command that only reads: a data dir that does
// not exist is an error, not an empty memory, since it is most often a
// mistyped --dir or $DAYBOOK_DIR. Only the commands that write create it.
func (e *env) reader(ctx context.Context) (api.Service, error) {
	if err := e.mustExist(); err != nil {
		return nil, err
	}
	return e.backend(ctx)
}

// mustExist fails, naming the data dir, when it does not exist.
func (e *env) mustExist() error {
	if err := e.load(); err != nil {
		return err
	}
	_, err := os.Stat(e.absDir)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("data dir %s does not exist (a mistyped --dir or $DAYBOOK_DIR?); \"daybook remember\" or \"daybook import\" creates it", e.absDir)
	}
	if err != nil {
		return fmt.Errorf("reading the data dir: %w", err)
	}
	return nil
}

// close closes the local App, so that what it indexed is on disk before the
// process exits.
func (e *env) close() {
	if e.app != nil {
		if err := e.app.Close(); err != nil {
			fmt.Fprintf(e.stderr, "daybook: closing the index: %v\n", err)
		}
		e.app = nil
	}
}

// printJSON writes v as indented JSON.
func (e *env) printJSON(v any) error {
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// limitFlag adds --limit with its one meaning in every command: at most N;
// 0, like no --limit, is the command's default (def, said in the help).
func limitFlag(fs *flag.FlagSet, what, def string) *int {
	return fs.Int("limit", 0, fmt.Sprintf("at most N %s (0 or none: the default, %s)", what, def))
}

// checkLimit refuses a negative --limit, the same way in every command.
func checkLimit(cmd string, n int) error {
	if n < 0 {
		return usagef("%s: --limit %d: want a count, or 0 for the default", cmd, n)
	}
	return nil
}

func exactArgs(cmd string, pos []string, n int, what string) error {
	if len(pos) != n {
		return usagef("%s takes %s; got %d arguments (run \"daybook help %s\")", cmd, what, len(pos), cmd)
	}
	return nil
}
