package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/util/date"
)

func cmdBrowse() command {
	return command{
		name: "browse", args: "LEVEL [--from D] [--to D] [--limit N] [--json]",
		summary: "list the summaries of a level (day, month, year), newest first",
		help: `LEVEL is day, month or year. Prints each summary's id, its path and its
prose; "stale" marks a summary whose inputs changed since it was written
(the daemon or "daybook consolidate" rewrites it), "hand-edited" one that a
person changed and daybook keeps. "daybook expand ID" prints one whole.`,
		run: runBrowse,
	}
}

func runBrowse(ctx context.Context, e *env, args []string) error {
	fs := e.newFlags("browse")
	from := fs.String("from", "", "first day: "+date.ArgForms)
	to := fs.String("to", "", "last day")
	limit := limitFlag(fs, "summaries", "50")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if err := exactArgs("browse", pos, 1, "one LEVEL (day, month or year)"); err != nil {
		return err
	}
	if err := checkLimit("browse", *limit); err != nil {
		return err
	}
	b, err := e.reader(ctx)
	if err != nil {
		return err
	}
	if err := e.checkRange(*from, *to); err != nil {
		return err
	}
	resp, err := b.Browse(ctx, api.BrowseRequest{Level: pos[0], From: *from, To: *to, Limit: *limit})
	if err != nil {
		return err
	}
	if *asJSON {
		return e.printJSON(resp)
	}
	if len(resp.Summaries) == 0 {
		fmt.Fprintf(e.stderr, "no %s summaries in range\n", pos[0])
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
		fmt.Fprintf(e.stdout, "%s  %s", s.ID, s.Path)
		if len(flags) > 0 {
			fmt.Fprintf(e.stdout, "  (%s)", strings.Join(flags, ", "))
		}
		fmt.Fprintln(e.stdout)
		switch {
		case s.Error != "":
			fmt.Fprintf(e.stdout, "    unreadable: %s\n", s.Error)
		case s.Prose != "":
			fmt.Fprintf(e.stdout, "    %s\n", strings.ReplaceAll(s.Prose, "\n", "\n    "))
		}
	}
	return nil
}
