package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/daybook/daybook/internal/util/date"
)

func cmdHelp() command {
	return command{
		name: "help", args: "[COMMAND]", summary: "show the commands, or one command's flags",
		run: func(ctx context.Context, e *env, args []string) error {
			if len(args) == 0 {
				printHelp(e.stdout)
				return nil
			}
			c, ok := lookup(args[0])
			if !ok {
				return usagef("unknown command %q; run \"daybook help\" for the list", args[0])
			}
			printSynopsis(e.stdout, c)
			// The flags live in the command's FlagSet: ask it with -h.
			fe := newEnv(strings.NewReader(""), e.stdout, io.Discard)
			fe.flagsOnly = true
			c.run(ctx, fe, []string{"-h"})
			return nil
		},
	}
}

func printHelp(w io.Writer) {
	fmt.Fprint(w, `daybook keeps a long-term memory as markdown day files, consolidates them
into daily, monthly and yearly summaries, and recalls from both.

Usage: daybook [--dir DIR] [--config FILE] [-v] COMMAND [ARGS]

Commands:
`)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range commands() {
		fmt.Fprintf(tw, "  %s\t%s\n", c.name, c.summary)
	}
	tw.Flush()
	fmt.Fprint(w, `
The data dir is --dir, else $DAYBOOK_DIR, else $XDG_DATA_HOME/daybook, else
~/.local/share/daybook. Commands that only read refuse one that does not
exist; remember, import, daemon and gen create it.
Dates are `+date.ArgForms+`.
--limit 0, like no --limit, is a command's default. Text that starts with "-"
goes after "--". Run "daybook help COMMAND" for a command's flags.
Exit codes: 0 ok, 1 error, 2 usage.
`)
}

func printSynopsis(w io.Writer, c command) {
	fmt.Fprintf(w, "Usage: daybook %s %s\n\n%s.\n", c.name, c.args, upperFirst(c.summary))
	if c.help != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(c.help))
	}
}

// printFlags prints the flags of fs.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, "\nFlags:")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
