package main

import (
	"context"
	"fmt"

	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/util/date"
)

func cmdDays() command {
	return command{
		name: "days", args: "[--from D] [--to D] [--json]",
		summary: "list days with their entry counts, oldest first",
		run:     runDays,
	}
}

func runDays(ctx context.Context, e *env, args []string) error {
	fs := e.newFlags("days")
	from := fs.String("from", "", "first day: "+date.ArgForms)
	to := fs.String("to", "", "last day")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("days takes no arguments, only --from and --to")
	}
	b, err := e.reader(ctx)
	if err != nil {
		return err
	}
	if err := e.checkRange(*from, *to); err != nil {
		return err
	}
	resp, err := b.Days(ctx, api.DaysRequest{From: *from, To: *to})
	if err != nil {
		return err
	}
	if *asJSON {
		return e.printJSON(resp)
	}
	total := 0
	for _, d := range resp.Days {
		if d.Error != "" {
			fmt.Fprintf(e.stdout, "%s  unreadable: %s\n", d.Date, d.Error)
			continue
		}
		total += d.Entries
		fmt.Fprintf(e.stdout, "%s  %4d entries  %s\n", d.Date, d.Entries, d.Path)
	}
	fmt.Fprintf(e.stdout, "%d days, %d entries\n", len(resp.Days), total)
	return nil
}
