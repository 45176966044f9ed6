// Command daybook-core is the whole of daybook, a long-term memory for a
// person or an AI agent: markdown day files as the source of truth, a
// pyramid of summaries built by a daemon, and recall over both. People run
// daybook (cmd/daybook), a small front that starts fast, prints the command
// list, hands the reads and remember to a running daemon (this program,
// see frontserve.go) and replaces itself with this one for the rest. Run
// "daybook help" for the commands.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	_ "time/tzdata" // time zones by name on machines without a zoneinfo database
)

func main() { os.Exit(mainCode()) }

// mainCode runs daybook with the process's arguments and streams, stopping
// on SIGINT or SIGTERM, and returns the exit code.
func mainCode() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// Exit codes.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

// command is one subcommand; each lives in a file of its own.
type command struct {
	name    string
	args    string // synopsis after the name
	summary string // one line for "daybook help"
	help    string // more, for "daybook help NAME"
	run     func(ctx context.Context, e *env, args []string) error
}

// commands lists every subcommand in the order "daybook help" shows them.
func commands() []command {
	return []command{
		// Write
		cmdRemember(),
		cmdImport(),
		// Read
		cmdRecall(),
		cmdFind(),
		cmdDay(),
		cmdDays(),
		cmdExpand(),
		cmdBrowse(),
		cmdContext(),
		cmdTopics(),
		cmdTopic(),
		cmdStats(),
		// Run
		cmdDaemon(),
		cmdService(),
		cmdStatus(),
		cmdDoctor(),
		cmdConsolidate(),
		cmdReindex(),
		cmdMergeDriver(),
		cmdMCP(),
		cmdHook(),
		cmdWeb(),
		// Measure
		cmdGen(),
		cmdBench(),
		cmdEval(),
		cmdHelp(),
	}
}

func lookup(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// usageError is a mistake in how daybook was called: exit code 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runEnv(ctx, newEnv(stdin, stdout, stderr), args)
}

// runEnv runs the command args names in e and returns the exit code.
func runEnv(ctx context.Context, e *env, args []string) int {
	stderr := e.stderr
	rest, err := e.parseGlobal(args)
	if err == nil && len(rest) == 0 {
		err = usagef("no command given; run \"daybook help\" for the list")
	}
	if err == nil {
		c, ok := lookup(rest[0])
		if !ok {
			err = usagef("unknown command %q; run \"daybook help\" for the list", rest[0])
		} else {
			err = c.run(ctx, e, rest[1:])
		}
	}
	defer e.close()
	var ue usageError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errHelpShown):
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "daybook: %v\n", err)
		return exitUsage
	default:
		fmt.Fprintf(stderr, "daybook: %v\n", err)
		return exitError
	}
}
