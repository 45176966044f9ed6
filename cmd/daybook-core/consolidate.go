package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/cli"
	"github.com/daybook/daybook/internal/util/progress"
)

func cmdConsolidate() cli.Command {
	return cli.Command{
		Name: "consolidate", Args: "[--from D] [--to D] [--level day|month|year] [--force] [--json]",
		Summary: "write the daily, monthly and yearly summaries that are missing or out of date",
		Help: `Consolidate brings the summaries under summaries/ up to date: a day's from its
entries and notes, a month's from its daily summaries, a year's from its
monthly ones, in that order. Only closed periods are consolidated: days before
today, months before this month, years before this year (in the configured
time zone), since an open period would be rewritten with every new entry.

A summary whose inputs did not change is left alone, so a second run writes
nothing. A summary a person edited is never overwritten (it is named in the
output); --force rewrites it, and every other summary in range. A day file
that cannot be read (not UTF-8, too big) is skipped and named; the rest is
consolidated. Only one consolidation runs on a data dir at a time.

--from and --to limit the run to those days and the months and years that
overlap them; --level to one level.`,
		Run: runConsolidate,
	}
}

func runConsolidate(ctx context.Context, e *cli.Env, args []string) error {
	fs := e.NewFlags("consolidate")
	from := fs.String("from", "", "first day: "+date.ArgForms)
	to := fs.String("to", "", "last day")
	level := fs.String("level", "", "only this level: day, month or year")
	force := fs.Bool("force", false, "rewrite summaries even when unchanged or edited by hand")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return cli.Usagef("consolidate takes no arguments, only flags (run \"daybook help consolidate\")")
	}
	switch *level {
	case "", "day", "month", "year":
	default:
		return cli.Usagef("consolidate: --level %q: want day, month or year", *level)
	}
	// With a daemon running this goes through its socket, so that its index
	// sees the summaries written; the progress bar is then not shown.
	c, err := e.Reader(ctx)
	if err != nil {
		return err
	}
	if err := e.CheckRange(*from, *to); err != nil {
		return err
	}
	req := daybook.ConsolidateRequest{From: *from, To: *to, Level: *level, Force: *force}
	finish := func() {}
	if !*asJSON && isTerminal(e.Stderr) {
		req.Progress, finish = progress.Func(e.Stderr, "consolidating", 0)
	}
	resp, err := c.Consolidate(ctx, req)
	finish()
	if err != nil {
		return err
	}
	if *asJSON {
		return e.PrintJSON(resp)
	}
	for _, k := range resp.Kept {
		fmt.Fprintf(e.Stdout, "kept %s: edited by hand (--force rewrites it)\n", k)
	}
	for _, r := range resp.Removed {
		fmt.Fprintf(e.Stdout, "removed %s: its day file is gone\n", r)
	}
	for _, s := range resp.Skipped {
		if strings.HasPrefix(s.Reason, s.Path) {
			fmt.Fprintf(e.Stdout, "skipped %s\n", s.Reason) // the reason names the file and line
		} else {
			fmt.Fprintf(e.Stdout, "skipped %s: %s\n", s.Path, s.Reason)
		}
	}
	fmt.Fprintln(e.Stdout, summaryLine(resp))
	return nil
}

// summaryLine says in one line what a consolidation did.
func summaryLine(r daybook.ConsolidateResponse) string {
	w := r.Written
	parts := []string{fmt.Sprintf("wrote %s, %s, %s", count(w.Days, "day"), count(w.Months, "month"), count(w.Years, "year")),
		fmt.Sprintf("%d unchanged", r.Unchanged)}
	if len(r.Kept) > 0 {
		parts = append(parts, fmt.Sprintf("%d kept", len(r.Kept)))
	}
	if len(r.Removed) > 0 {
		parts = append(parts, fmt.Sprintf("%d removed", len(r.Removed)))
	}
	if len(r.Skipped) > 0 {
		parts = append(parts, fmt.Sprintf("%d skipped", len(r.Skipped)))
	}
	return strings.Join(parts, "; ") + fmt.Sprintf(" (%s)", (time.Duration(r.DurationMS)*time.Millisecond).String())
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
