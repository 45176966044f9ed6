package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/cli"
	"github.com/daybook/daybook/internal/config"
)

func cmdHelp() cli.Command {
	return cli.Command{
		Name: "help", Args: "[COMMAND]", Summary: "show the commands, or one command's flags",
		Run: func(ctx context.Context, e *cli.Env, args []string) error {
			if len(args) == 0 {
				printHelp(e.Stdout)
				return nil
			}
			c, ok := lookup(args[0])
			if !ok {
				return cli.Usagef("unknown command %q; run \"daybook help\" for the list", args[0])
			}
			cli.PrintSynopsis(e.Stdout, c)
			// The flags live in the command's FlagSet: ask it with -h.
			fe := cli.NewEnv(strings.NewReader(""), e.Stdout, io.Discard)
			fe.FlagsOnly = true
			c.Run(ctx, fe, []string{"-h"})
			return nil
		},
	}
}

func printHelp(w io.Writer) {
	fmt.Fprint(w, `daybook keeps a long-term memory as markdown day files, consolidates them
into daily, monthly and yearly summaries, and recalls from both.

Usage: daybook [--dir DIR] [--config FILE] [-v] COMMAND [ARGS]
       daybook --version

Commands:
`)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range commands() {
		fmt.Fprintf(tw, "  %s\t%s\n", c.Name, c.Summary)
	}
	tw.Flush()
	fmt.Fprint(w, "\nEnvironment:\n")
	for _, v := range config.Variables {
		fmt.Fprintf(tw, "  $%s\t%s\n", v.Name, v.Decides)
	}
	tw.Flush()
	fmt.Fprint(w, `
The data dir is --dir, else `+config.DataDirDefault+`.
Commands that only read refuse one that does not exist; remember, import,
daemon and gen create it.
Dates are `+date.ArgForms+`.
--limit 0, like no --limit, is a command's default. Text that starts with "-"
goes after "--". Run "daybook help COMMAND" for a command's flags.
Exit codes: 0 ok, 1 error, 2 usage.
`)
}
