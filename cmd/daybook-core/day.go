package main

import (
	"context"
	"fmt"

	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/util/date"
	"github.com/daybook/daybook/internal/util/safetext"
)

func cmdDay() command {
	return command{
		name: "day", args: "[DATE] [--json]",
		summary: "print a day file (today by default)",
		help: "DATE is " + date.ArgForms + `.
Control characters in the file (a terminal's escape sequences among them)
are printed escaped, as \x1b; tab and newline are kept. --json has the
exact text.`,
		run: runDay,
	}
}

func runDay(ctx context.Context, e *env, args []string) error {
	fs := e.newFlags("day")
	asJSON := fs.Bool("json", false, "print the day and its parsed entries as JSON")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usagef("day takes at most one DATE")
	}
	req := api.DayRequest{}
	if len(pos) == 1 {
		req.Date = pos[0]
	}
	b, err := e.reader(ctx)
	if err != nil {
		return err
	}
	resp, err := b.Day(ctx, req)
	if err != nil {
		return err
	}
	if *asJSON {
		return e.printJSON(resp)
	}
	if !resp.Exists {
		fmt.Fprintf(e.stderr, "no entries on %s (%s does not exist)\n", resp.Date, resp.Path)
		return nil
	}
	fmt.Fprint(e.stdout, safetext.Escape(resp.Content))
	return nil
}
