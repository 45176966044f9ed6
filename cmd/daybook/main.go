// Command daybook is the front of daybook, a long-term memory for a person
// or an AI agent (see the README). It starts in about the time of a Go
// hello-world, since every command pays its start: it prints the command
// list itself, hands a command that only asks the daemon's API (recall,
// find, day, remember, ...: front.Commands) to the daemon that serves the data dir when one is up, and
// replaces itself with daybook-core, the whole program, beside it, for
// everything else, or whenever no daemon takes the command.
//
// It links only the standard library's basics and the config package: no
// search index, MCP, Ollama or HTTP code, and no net package, which on a
// machine with a C compiler would link libc and its loader's start.
package main

import (
	_ "embed"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/front"
)

// helpText is "daybook help" as daybook-core prints it; a test of
// daybook-core keeps the two the same (go test ./cmd/daybook-core -run
// TestFrontHelp -update writes it).
//
//go:embed help.txt
var helpText string

func main() {
	args := os.Args[1:]
	g, rest, err := parseGlobal(args)
	switch {
	case err == flag.ErrHelp || err == nil && len(rest) == 1 && rest[0] == "help":
		io.WriteString(os.Stdout, helpText)
		return
	case err == nil && front.Hook(rest):
		if code, ok := hook(args, g.after(rest[1:]), rest[1]); ok {
			os.Exit(code)
		}
	case err == nil && front.Takes(rest):
		if code, ok := forward(args, g.after(rest[1:])); ok {
			os.Exit(code)
		}
	}
	os.Exit(runCore(args))
}

// globals are the flags every command takes, before or after its name.
type globals struct{ dir, config string }

// parseGlobal parses the global flags before the command name as
// daybook-core does, and returns them and the rest.
func parseGlobal(args []string) (globals, []string, error) {
	var g globals
	fs := flag.NewFlagSet("daybook", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&g.dir, "dir", "", "")
	fs.StringVar(&g.config, "config", "", "")
	fs.Bool("v", false, "")
	err := fs.Parse(args)
	return g, fs.Args(), err
}

// after adds the global flags among a command's arguments (up to "--"),
// where daybook-core takes them too. Only the socket is chosen with them:
// the daemon resolves the data dir again from the arguments with the
// command's own flags, and refuses a command for another dir than its own.
func (g globals) after(args []string) globals {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		var to *string
		switch name {
		case "dir":
			to = &g.dir
		case "config":
			to = &g.config
		default:
			continue
		}
		if !hasVal && i+1 < len(args) {
			i++
			val = args[i]
		}
		*to = val
	}
	return g
}

// socket returns the socket of the daemon for g's data dir and config, or
// "" when they cannot be resolved (daybook-core then says why).
func (g globals) socket() string {
	path, _ := g.load()
	return path
}

// load returns the socket of the daemon for g's data dir and config, and
// the config; "" when they cannot be resolved.
func (g globals) load() (string, config.Config) {
	env := config.OSEnv()
	dir, err := env.DataDir(g.dir)
	if err != nil {
		return "", config.Config{}
	}
	path, required, err := env.ConfigPath(g.config)
	if err != nil {
		return "", config.Config{}
	}
	cfg, err := config.Load(path, required)
	if err != nil {
		return "", config.Config{}
	}
	return env.SocketPath(cfg, dir), cfg
}

// fail prints a front's own error, as daybook-core prints its errors, and
// returns exit code 1.
func fail(format string, args ...any) int {
	fmt.Fprintf(os.Stderr, "daybook: "+format+"\n", args...)
	return 1
}
