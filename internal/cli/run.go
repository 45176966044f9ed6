package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/daybook/daybook"
)

// Exit codes, decided in one place: Run.
const (
	ExitOK    = 0
	ExitError = 1
	ExitUsage = 2 // a mistake in how daybook was called, here or in a request the backend refused as such
)

// Command is one subcommand; each lives in a file of its own.
type Command struct {
	Name    string
	Args    string // synopsis after the name
	Summary string // one line for "daybook help"
	Help    string // more, for "daybook help NAME"
	Run     func(ctx context.Context, e *Env, args []string) error
}

// UsageError is a mistake in how daybook was called: exit code 2.
type UsageError struct{ msg string }

func (e UsageError) Error() string { return e.msg }

// Usagef returns a UsageError.
func Usagef(format string, args ...any) error { return UsageError{fmt.Sprintf(format, args...)} }

func lookup(cmds []Command, name string) (Command, bool) {
	for _, c := range cmds {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}

// Lookup returns the command of cmds called name.
func Lookup(cmds []Command, name string) (Command, bool) { return lookup(cmds, name) }

// Run runs the command args names, one of cmds, in e, and returns the exit
// code: 0, 1 for an error, 2 for a usage error (UsageError, or a request
// the backend refused as wrong: daybook.CodeUsage or daybook.CodeOutsideWindow,
// on the files or over the socket alike). An error for which stop reports
// true is returned unprinted, with no code: the caller runs the command
// another way (the front, when no daemon answers).
func Run(ctx context.Context, e *Env, cmds []Command, args []string, stop func(error) bool) (int, error) {
	e.commands = cmds
	defer e.Close()
	rest, err := e.ParseGlobal(args)
	if err == nil && len(rest) == 0 {
		err = Usagef("no command given; run \"daybook help\" for the list")
	}
	if err == nil {
		c, ok := lookup(cmds, rest[0])
		if !ok {
			err = Usagef("unknown command %q; run \"daybook help\" for the list", rest[0])
		} else {
			err = c.Run(ctx, e, rest[1:])
		}
	}
	if err != nil && stop != nil && stop(err) {
		return 0, err
	}
	return ExitCode(err), printErr(e, err)
}

// ExitCode is the exit code for err.
func ExitCode(err error) int {
	var ue UsageError
	switch {
	case err == nil, errors.Is(err, ErrHelpShown):
		return ExitOK
	case errors.As(err, &ue):
		return ExitUsage
	}
	switch daybook.CodeOf(err) {
	case daybook.CodeUsage, daybook.CodeOutsideWindow:
		return ExitUsage
	}
	return ExitError
}

// printErr prints err as daybook's errors are printed, and returns nil.
func printErr(e *Env, err error) error {
	if err != nil && !errors.Is(err, ErrHelpShown) {
		fmt.Fprintf(e.Stderr, "daybook: %v\n", err)
	}
	return nil
}
