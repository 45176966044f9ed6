package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/daybook/daybook"
)

func CmdExpand() Command {
	return Command{
		Name: "expand", Args: "ID [--json]",
		Summary: "print the full text behind an id that recall or browse gave",
		Help: `ID is an entry id (2026-11-22T09:14-3fa2b1c4d5e6), a line (2026-11-22:L12),
day:2026-11-22 (the day file, then its daily summary), month:2026-11 or
year:2026 (the summary). Prints the text, then the ids one level down:
a year's months, a month's days, a day's entries and notes.`,
		Run: runExpand,
	}
}

func runExpand(ctx context.Context, e *Env, args []string) error {
	fs := e.NewFlags("expand")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if err := ExactArgs("expand", pos, 1, "one ID"); err != nil {
		return err
	}
	b, err := e.Reader(ctx)
	if err != nil {
		return err
	}
	resp, err := b.Expand(ctx, daybook.ExpandRequest{ID: pos[0]})
	if err != nil {
		return err
	}
	if *asJSON {
		return e.PrintJSON(resp)
	}
	printText := func(path, text string) {
		fmt.Fprintf(e.Stdout, "==> %s <==\n", path)
		fmt.Fprint(e.Stdout, text)
		if !strings.HasSuffix(text, "\n") {
			fmt.Fprintln(e.Stdout)
		}
	}
	if resp.Text != "" {
		printText(fmt.Sprintf("%s:%d", resp.Path, resp.Line), resp.Text)
	}
	if resp.Summary != "" {
		printText(resp.SummaryPath, resp.Summary)
	}
	if resp.Text == "" && resp.Summary == "" {
		fmt.Fprintf(e.Stderr, "%s has no summary yet\n", resp.ID)
	}
	if len(resp.Related) > 0 {
		fmt.Fprintln(e.Stdout, "==> related <==")
		for _, id := range resp.Related {
			fmt.Fprintln(e.Stdout, id)
		}
	}
	return nil
}
