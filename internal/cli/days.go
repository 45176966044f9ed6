package cli

import (
	"context"
	"fmt"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
)

func CmdDays() Command {
	return Command{
		Name: "days", Args: "[--from D] [--to D] [--json]",
		Summary: "list days with their entry counts, oldest first",
		Run:     runDays,
	}
}

func runDays(ctx context.Context, e *Env, args []string) error {
	fs := e.NewFlags("days")
	from := fs.String("from", "", "first day: "+date.ArgForms)
	to := fs.String("to", "", "last day")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return Usagef("days takes no arguments, only --from and --to")
	}
	b, err := e.Reader(ctx)
	if err != nil {
		return err
	}
	if err := e.CheckRange(*from, *to); err != nil {
		return err
	}
	resp, err := b.Days(ctx, daybook.DaysRequest{From: *from, To: *to})
	if err != nil {
		return err
	}
	if *asJSON {
		return e.PrintJSON(resp)
	}
	total := 0
	for _, d := range resp.Days {
		if d.Error != "" {
			fmt.Fprintf(e.Stdout, "%s  unreadable: %s\n", d.Date, d.Error)
			continue
		}
		total += d.Entries
		fmt.Fprintf(e.Stdout, "%s  %4d entries  %s\n", d.Date, d.Entries, d.Path)
	}
	fmt.Fprintf(e.Stdout, "%d days, %d entries\n", len(resp.Days), total)
	return nil
}
