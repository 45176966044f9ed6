package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"syscall"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/adapters/api/apiclient"
	"github.com/daybook/daybook/internal/config"
)

// ErrHelpShown ends a command after -h printed its usage.
var ErrHelpShown = errors.New("help shown")

// ErrFullConfig is Load's answer, in a program with no ReadConfig (the
// front), when config.ReadSimple does not take the config file: nothing was
// asked or printed, so the whole program, which reads any config file and
// says what is wrong with it, may run the command instead.
var ErrFullConfig = errors.New("the config file needs daybook-core's reader")

// ErrNoDaemon is Backend's answer, in a program with no Local (the front),
// when no daemon answers for the data dir: nothing was asked or printed,
// so the whole program may run the command instead.
var ErrNoDaemon = errors.New("no daemon answers for this data dir")

// Env is what every command gets: standard streams, the global flags, and
// the config and the backend built from them on first use.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	OSEnv          config.Env

	Dir, ConfigPath string // --dir and --config
	Verbose         bool   // -v
	FlagsOnly       bool   // -h prints only the flags: "daybook help NAME" printed the rest

	// Cfg and AbsDir are the config and the data dir, set by Load.
	Cfg    config.Config
	AbsDir string
	loaded bool

	// ReadConfig reads the config file (configfile.Load, in daybook-core);
	// nil in the front, which reads it with config.ReadSimple, and Load
	// then says ErrFullConfig for a file that takes more.
	ReadConfig func(path string, required bool) (config.Config, error)

	// Local returns what works on the files when no daemon answers (the
	// App, in daybook-core); nil in the front, whose Backend then says
	// ErrNoDaemon. It is called at most once; what it returns is closed
	// by Close when it is an io.Closer.
	Local func(e *Env) (daybook.Service, error)
	local daybook.Service

	// Direct asks the daemon without asking its status first (the front,
	// where a round trip is a tenth of the command): each request names
	// the data dir and a daemon serving another refuses it before any
	// work. Nothing having run, the caller may then run the command
	// another way: see Unanswered.
	Direct bool

	commands []Command // the program's, for -h
}

// NewEnv returns an Env on the process's environment.
func NewEnv(stdin io.Reader, stdout, stderr io.Writer) *Env {
	return &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, OSEnv: config.OSEnv()}
}

// globalFlags adds --dir, --config and -v to fs, so that they may stand
// before or after the command name: the one place they are defined.
func (e *Env) globalFlags(fs *flag.FlagSet) {
	fs.StringVar(&e.Dir, "dir", e.Dir, "data dir (default "+config.DataDirDefault+")")
	fs.StringVar(&e.ConfigPath, "config", e.ConfigPath, "config file (default "+config.ConfigPathDefault+")")
	fs.BoolVar(&e.Verbose, "v", e.Verbose, "log debug lines to stderr")
}

// ParseGlobal parses the global flags before the command name and returns
// the rest: the command and its arguments. "--version" is the command
// "version" and "-h" the command "help".
func (e *Env) ParseGlobal(args []string) ([]string, error) {
	fs := flag.NewFlagSet("daybook", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	e.globalFlags(fs)
	version := fs.Bool("version", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return []string{"help"}, nil
		}
		return nil, Usagef("%v", err)
	}
	if *version {
		return append([]string{"version"}, fs.Args()...), nil
	}
	return fs.Args(), nil
}

// NewFlags returns a FlagSet for command c with the global flags on it.
func (e *Env) NewFlags(c string) *flag.FlagSet {
	fs := flag.NewFlagSet(c, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	e.globalFlags(fs)
	return fs
}

// NewFlagsNoDir returns a FlagSet for command c, which works on no data
// dir or config (gen writes the folder it is given), with only -v of the
// global flags; CheckNoDir then refuses a --dir or --config given before
// the command.
func (e *Env) NewFlagsNoDir(c string) *flag.FlagSet {
	fs := flag.NewFlagSet(c, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&e.Verbose, "v", e.Verbose, "log debug lines to stderr")
	return fs
}

// CheckNoDir refuses --dir and --config for command c, which takes none.
func (e *Env) CheckNoDir(c string) error {
	if e.Dir != "" || e.ConfigPath != "" {
		return Usagef("%s takes no --dir or --config: it works on the folder it is given (run \"daybook help %s\")", c, c)
	}
	return nil
}

// Parse parses args with fs, allowing flags after positional arguments
// ("daybook remember TEXT --kind fact"), and returns the positional ones.
// "--" ends the flags. -h prints the command's help.
func (e *Env) Parse(fs *flag.FlagSet, args []string) ([]string, error) {
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
				if c, ok := lookup(e.commands, fs.Name()); ok && !e.FlagsOnly {
					PrintSynopsis(e.Stdout, c)
				}
				PrintFlags(e.Stdout, fs)
				return nil, ErrHelpShown
			}
			if strings.Contains(err.Error(), "not defined") || strings.Contains(err.Error(), "bad flag syntax") {
				return nil, Usagef("%s: %v (an argument that starts with \"-\" goes after \"--\": daybook %s [FLAGS] -- \"-- text\")",
					fs.Name(), err, fs.Name())
			}
			return nil, Usagef("%s: %v", fs.Name(), err)
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

// Load resolves the data dir and config once.
func (e *Env) Load() error {
	if e.loaded {
		return nil
	}
	dir, path, required, err := e.Paths()
	if err != nil {
		return err
	}
	var cfg config.Config
	if e.ReadConfig != nil {
		if cfg, err = e.ReadConfig(path, required); err != nil {
			return err
		}
	} else {
		var ok bool
		if cfg, ok = config.ReadSimple(path, required); !ok {
			return ErrFullConfig
		}
	}
	e.AbsDir, e.Cfg, e.loaded = dir, cfg, true
	warnForeignOwner(e)
	return nil
}

// Paths resolves the data dir (--dir, else the environment's) and the
// config file (--config, else the environment's), and whether that file
// must exist (one named on purpose must); Load reads them.
func (e *Env) Paths() (dir, configPath string, required bool, err error) {
	if dir, err = e.OSEnv.DataDir(e.Dir); err != nil {
		return "", "", false, err
	}
	configPath, required, err = e.OSEnv.ConfigPath(e.ConfigPath)
	return dir, configPath, required, err
}

// SetLoaded sets the data dir and config as Load would have (tests, and a
// program that resolved them itself).
func (e *Env) SetLoaded(dir string, cfg config.Config) {
	e.AbsDir, e.Cfg, e.loaded = dir, cfg, true
}

// Socket is the daemon's socket for the data dir and config. e must be
// loaded.
func (e *Env) Socket() string { return e.OSEnv.SocketPath(e.Cfg, e.AbsDir) }

// Logger returns the CLI's logger: warnings to stderr, debug with -v.
func (e *Env) Logger() *slog.Logger {
	level := slog.LevelWarn
	if e.Verbose {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(e.Stderr, &slog.HandlerOptions{Level: level}))
}

// LocalService returns what works on the files, made by Local once.
func (e *Env) LocalService() (daybook.Service, error) {
	if e.local != nil {
		return e.local, nil
	}
	if e.Local == nil {
		return nil, ErrNoDaemon
	}
	if err := e.Load(); err != nil {
		return nil, err
	}
	s, err := e.Local(e)
	if err != nil {
		return nil, err
	}
	e.local = s
	return s, nil
}

// SetLocal makes s what works on the files (the daemon's own App), closed
// by Close.
func (e *Env) SetLocal(s daybook.Service) { e.local = s }

// Backend returns what carries out the operations: the daemon over its
// socket when one answers for this data dir (the one client of the socket
// API, for every command a daemon answers), else LocalService. Cancelling
// ctx stops the wait for the daemon's answer.
func (e *Env) Backend(ctx context.Context) (daybook.Service, error) {
	if err := e.Load(); err != nil {
		return nil, err
	}
	if e.local != nil {
		return e.local, nil
	}
	if e.Direct {
		if fi, err := os.Lstat(e.Socket()); err != nil || fi.Mode().Type() != os.ModeSocket {
			return e.LocalService()
		}
		return apiclient.New(e.Socket()).ForDir(e.AbsDir).AnswerWithin(AnswerTimeout), nil
	}
	c, _, err := DialDaemon(ctx, e)
	if err != nil {
		return nil, err
	}
	if c != nil {
		return c, nil
	}
	return e.LocalService()
}

// Unanswered reports whether err, from a command run with Direct, says that
// no daemon took the request, so that nothing ran: no daemon (ErrNoDaemon),
// none listening on the socket, one too busy to accept, or one serving
// another data dir. (Not a connection reset: the daemon may have done the
// work before it went.)
func Unanswered(err error) bool {
	return errors.Is(err, ErrNoDaemon) || apiclient.NoListener(err) || errors.Is(err, syscall.EAGAIN) || daybook.CodeOf(err) == daybook.CodeOtherDir
}

// Reader is Backend for a command that only reads: a data dir that does
// not exist is an error, not an empty memory, since it is most often a
// mistyped --dir or $DAYBOOK_DIR. Only the commands that write create it.
func (e *Env) Reader(ctx context.Context) (daybook.Service, error) {
	if err := e.MustExist(); err != nil {
		return nil, err
	}
	return e.Backend(ctx)
}

// MustExist fails, naming the data dir, when it does not exist.
func (e *Env) MustExist() error {
	if err := e.Load(); err != nil {
		return err
	}
	_, err := os.Stat(e.AbsDir)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("data dir %s does not exist (a mistyped --dir or $DAYBOOK_DIR?); \"daybook remember\" or \"daybook import\" creates it", e.AbsDir)
	}
	if err != nil {
		return fmt.Errorf("reading the data dir: %w", err)
	}
	return nil
}

// Close closes what works on the files, so that what it indexed is on disk
// before the process exits.
func (e *Env) Close() {
	if c, ok := e.local.(io.Closer); ok {
		if err := c.Close(); err != nil {
			fmt.Fprintf(e.Stderr, "daybook: closing the index: %v\n", err)
		}
	}
	e.local = nil
}

// PrintJSON writes v as indented JSON.
func (e *Env) PrintJSON(v any) error {
	enc := json.NewEncoder(e.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// StringList is a repeatable string flag.
type StringList []string

func (s *StringList) String() string     { return strings.Join(*s, ",") }
func (s *StringList) Set(v string) error { *s = append(*s, v); return nil }

// LimitFlag adds --limit with its one meaning in every command: at most N;
// 0, like no --limit, is the command's default (def, said in the help).
func LimitFlag(fs *flag.FlagSet, what, def string) *int {
	return fs.Int("limit", 0, fmt.Sprintf("at most N %s (0 or none: the default, %s)", what, def))
}

// CheckLimit refuses a negative --limit, the same way in every command.
func CheckLimit(cmd string, n int) error {
	if n < 0 {
		return Usagef("%s: --limit %d: want a count, or 0 for the default", cmd, n)
	}
	return nil
}

// ExactArgs refuses other than n positional arguments.
func ExactArgs(cmd string, pos []string, n int, what string) error {
	if len(pos) != n {
		return Usagef("%s takes %s; got %d arguments (run \"daybook help %s\")", cmd, what, len(pos), cmd)
	}
	return nil
}
