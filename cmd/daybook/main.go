// Command daybook is the front of daybook, a long-term memory for a person
// or an AI agent (see the README). Every command pays its start, so the
// commands a daemon answers (recall, find, day, remember, ...: the
// commands of internal/cli) and an agent's hooks run here, through the daemon's socket API with
// the one client (api.Client), in a binary that links no search index, MCP
// or Ollama code and starts in a few milliseconds. For every other
// command, and whenever no daemon answers for the data dir, it replaces
// itself with daybook-core, the whole program, beside it, which runs the
// same code for these commands on the files; find excepted, which reads
// only the day files and runs that code here (find.go).
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	_ "time/tzdata" // zones by name as daybook-core knows them, for find's days (find.go)

	"github.com/daybook/daybook/internal/cli"
)

func main() {
	args := os.Args[1:]
	if !answered(args) {
		os.Exit(runCore(args))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	e := cli.NewEnv(os.Stdin, os.Stdout, os.Stderr)
	e.Direct = true
	code, err := cli.Run(ctx, e, commands(), args, handOver)
	stop()
	if err != nil {
		// No daemon answered, or the config file takes daybook-core's
		// reader: nothing was asked or printed.
		code = runCore(args)
	}
	os.Exit(code)
}

// commands are those the front runs: the ones a daemon answers.
func commands() []cli.Command {
	return []cli.Command{cli.CmdRemember(), cli.CmdRecall(), cmdFind(), cli.CmdDay(), cli.CmdDays(),
		cli.CmdExpand(), cli.CmdContext(), cli.CmdTopics(), cli.CmdTopic(), cli.CmdStats(), cli.CmdVersion(), cmdHelp(),
		// An agent runs a hook at every prompt: it never falls through to
		// daybook-core, and without a daemon prints nothing or spools.
		cli.CmdHook()}
}

// handOver reports whether err says that daybook-core must run the
// command: no daemon answered (cli.Unanswered), or the config file takes
// more than the front reads (cli.ErrFullConfig).
func handOver(err error) bool { return cli.Unanswered(err) || errors.Is(err, cli.ErrFullConfig) }

// answered reports whether the front runs the command args name: global
// flags that parse, and one of commands ("help" with no command named).
func answered(args []string) bool {
	rest, err := cli.NewEnv(nil, nil, nil).ParseGlobal(args)
	if err != nil || len(rest) == 0 || rest[0] == "help" && len(rest) > 1 {
		return false
	}
	_, ok := cli.Lookup(commands(), rest[0])
	return ok
}

// fail prints a front's own error, as daybook-core prints its errors, and
// returns exit code 1.
func fail(format string, args ...any) int {
	fmt.Fprintf(os.Stderr, "daybook: "+format+"\n", args...)
	return 1
}
