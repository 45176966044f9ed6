package cli

import (
	"context"
	"fmt"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/util/safetext"
)

func CmdDay() Command {
	return Command{
		Name: "day", Args: "[DATE] [--json]",
		Summary: "print a day file (today by default)",
		Help: "DATE is " + date.ArgForms + `.
Control characters in the file (a terminal's escape sequences among them)
are printed escaped, as \x1b; tab and newline are kept. --json has the
exact text.`,
		Run: runDay,
	}
}

func runDay(ctx context.Context, e *Env, args []string) error {
	fs := e.NewFlags("day")
	asJSON := fs.Bool("json", false, "print the day and its parsed entries as JSON")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return Usagef("day takes at most one DATE")
	}
	req := daybook.DayRequest{}
	if len(pos) == 1 {
		req.Date = pos[0]
	}
	b, err := e.Reader(ctx)
	if err != nil {
		return err
	}
	resp, err := b.Day(ctx, req)
	if err != nil {
		return err
	}
	if *asJSON {
		return e.PrintJSON(resp)
	}
	if !resp.Exists {
		fmt.Fprintf(e.Stderr, "no entries on %s (%s does not exist)\n", resp.Date, resp.Path)
		return nil
	}
	fmt.Fprint(e.Stdout, safetext.Escape(resp.Content))
	return nil
}
