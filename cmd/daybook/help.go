package main

import (
	"context"
	_ "embed"
	"io"

	"github.com/daybook/daybook/internal/cli"
)

// helpText is what "daybook help" prints: daybook-core's list of every
// command, written to help.txt by its test (go test ./cmd/daybook-core
// -run TestHelpText -update), which fails while the two differ, so that
// the front prints it without starting daybook-core.
//
//go:embed help.txt
var helpText string

// cmdHelp is "daybook help" (and -h) with no command named; "daybook help
// COMMAND" goes to daybook-core, which holds every command's flags.
func cmdHelp() cli.Command {
	return cli.Command{
		Name: "help", Args: "[COMMAND]", Summary: "show the commands, or one command's flags",
		Run: func(ctx context.Context, e *cli.Env, args []string) error {
			_, err := io.WriteString(e.Stdout, helpText)
			return err
		},
	}
}
