package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/daybook/daybook/internal/adapters/api"
)

func cmdExpand() command {
	return command{
		name: "expand", args: "ID [--json]",
		summary: "print the full text behind an id that recall or browse gave",
		help: `ID is an entry id (2026-11-22T09:14-3fa2b1c4d5e6), a line (2026-11-22:L12),
day:2026-11-22 (the day file, then its daily summary), month:2026-11 or
year:2026 (the summary). Prints the text, then the ids one level down:
a year's months, a month's days, a day's entries and notes.`,
		run: runExpand,
	}
}

func runExpand(ctx context.Context, e *env, args []string) error {
	fs := e.newFlags("expand")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if err := exactArgs("expand", pos, 1, "one ID"); err != nil {
		return err
	}
	b, err := e.reader(ctx)
	if err != nil {
		return err
	}
	resp, err := b.Expand(ctx, api.ExpandRequest{ID: pos[0]})
	if err != nil {
		return err
	}
	if *asJSON {
		return e.printJSON(resp)
	}
	printText := func(path, text string) {
		fmt.Fprintf(e.stdout, "==> %s <==\n", path)
		fmt.Fprint(e.stdout, text)
		if !strings.HasSuffix(text, "\n") {
			fmt.Fprintln(e.stdout)
		}
	}
	if resp.Text != "" {
		printText(fmt.Sprintf("%s:%d", resp.Path, resp.Line), resp.Text)
	}
	if resp.Summary != "" {
		printText(resp.SummaryPath, resp.Summary)
	}
	if resp.Text == "" && resp.Summary == "" {
		fmt.Fprintf(e.stderr, "%s has no summary yet\n", resp.ID)
	}
	if len(resp.Related) > 0 {
		fmt.Fprintln(e.stdout, "==> related <==")
		for _, id := range resp.Related {
			fmt.Fprintln(e.stdout, id)
		}
	}
	return nil
}
