package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/cli"
)

func cmdBrowse() cli.Command {
	return cli.Command{
		Name: "browse", Args: "LEVEL [--from D] [--to D] [--limit N] [--json]",
		Summary: "list the summaries of a level (day, month, year), newest first",
		Help: `LEVEL is day, month or year. Prints each summary's id, its path and its
prose; "stale" marks a summary whose inputs changed since it was written
(the daemon or "daybook consolidate" rewrites it), "hand-edited" one that a
person changed and daybook keeps. "daybook expand ID" prints one whole.`,
		Run: runBrowse,
	}
}

func runBrowse(ctx context.Context, e *cli.Env, args []string) error {
	fs := e.NewFlags("browse")
	from := fs.String("from", "", "first day: "+date.ArgForms)
	to := fs.String("to", "", "last day")
	limit := cli.LimitFlag(fs, "summaries", "50")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if err := cli.ExactArgs("browse", pos, 1, "one LEVEL (day, month or year)"); err != nil {
		return err
	}
	if err := cli.CheckLimit("browse", *limit); err != nil {
		return err
	}
	b, err := e.Reader(ctx)
	if err != nil {
		return err
	}
	if err := e.CheckRange(*from, *to); err != nil {
		return err
	}
	resp, err := b.Browse(ctx, daybook.BrowseRequest{Level: pos[0], From: *from, To: *to, Limit: *limit})
	if err != nil {
		return err
	}
	if *asJSON {
		return e.PrintJSON(resp)
	}
	if len(resp.Summaries) == 0 {
		fmt.Fprintf(e.Stderr, "no %s summaries in range\n", pos[0])
		return nil
	}
	for _, s := range resp.Summaries {
		var flags []string
		if s.Stale {
			flags = append(flags, "stale")
		}
		if s.HandEdited {
			flags = append(flags, "hand-edited")
		}
		fmt.Fprintf(e.Stdout, "%s  %s", s.ID, s.Path)
		if len(flags) > 0 {
			fmt.Fprintf(e.Stdout, "  (%s)", strings.Join(flags, ", "))
		}
		fmt.Fprintln(e.Stdout)
		switch {
		case s.Error != "":
			fmt.Fprintf(e.Stdout, "    unreadable: %s\n", s.Error)
		case s.Prose != "":
			fmt.Fprintf(e.Stdout, "    %s\n", strings.ReplaceAll(s.Prose, "\n", "\n    "))
		}
	}
	return nil
}
