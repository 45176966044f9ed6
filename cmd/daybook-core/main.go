// Command daybook-core is the whole of daybook, a long-term memory for a
// person or an AI agent: markdown day files as the source of truth, a
// pyramid of summaries built by a daemon, and recall over both. People run
// daybook (cmd/daybook), a small front that starts fast and runs the
// commands a daemon answers (internal/cli) through the daemon's socket;
// it replaces itself with this program for every other command, and when
// no daemon answers. Run "daybook help" for the commands.
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	_ "time/tzdata" // time zones by name on machines without a zoneinfo database

	"github.com/daybook/daybook/internal/cli"
	"github.com/daybook/daybook/internal/config/configfile"
)

func main() {
	// Nothing here reads heap profiles; sampling them keeps a bucket per
	// allocation site for the process's life, 1-2 MiB of a daemon's growth
	// under 20 concurrent chats through the memory proxy.
	runtime.MemProfileRate = 0
	os.Exit(mainCode())
}

// mainCode runs daybook with the process's arguments and streams, stopping
// on SIGINT or SIGTERM, and returns the exit code.
func mainCode() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// commands lists every subcommand in the order "daybook help" shows them.
func commands() []cli.Command {
	return []cli.Command{
		// Write
		cli.CmdRemember(),
		cmdImport(),
		// Read
		cli.CmdRecall(),
		cli.CmdFind(),
		cli.CmdDay(),
		cli.CmdDays(),
		cli.CmdExpand(),
		cmdBrowse(),
		cli.CmdContext(),
		cli.CmdTopics(),
		cli.CmdTopic(),
		cli.CmdStats(),
		// Talk
		cmdChat(),
		// Run
		cmdDaemon(),
		cmdService(),
		cmdStatus(),
		cmdDoctor(),
		cmdSpool(),
		cmdConsolidate(),
		cmdReindex(),
		cmdMergeDriver(),
		cmdMCP(),
		cli.CmdHook(),
		cmdWeb(),
		// Measure
		cmdGen(),
		cmdBench(),
		cmdEval(),
		cmdHelp(),
		cli.CmdVersion(),
	}
}

func lookup(name string) (cli.Command, bool) { return cli.Lookup(commands(), name) }

// newEnv returns an Env whose Local is the App on the files.
func newEnv(stdin io.Reader, stdout, stderr io.Writer) *cli.Env {
	e := cli.NewEnv(stdin, stdout, stderr)
	e.Local = openApp
	e.ReadConfig = configfile.Load
	return e
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runEnv(ctx, newEnv(stdin, stdout, stderr), args)
}

// runEnv runs the command args names in e and returns the exit code.
func runEnv(ctx context.Context, e *cli.Env, args []string) int {
	code, _ := cli.Run(ctx, e, commands(), args, nil)
	return code
}
