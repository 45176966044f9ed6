package main

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/util/date"
)

func cmdFind() command {
	return command{
		name: "find", args: "PATTERN [--from D] [--to D] [--regex] [--limit N]",
		summary: "scan day files for a pattern, newest first",
		help: `A literal PATTERN is case-insensitive unless it has an upper-case letter;
--regex takes RE2 syntax and is case-sensitive ((?i) makes it not).
Only the year and month folders in range are read.
Prints days/YYYY/MM/DD.md:LINE: TEXT.`,
		run: runFind,
	}
}

func runFind(ctx context.Context, e *env, args []string) error {
	fs := e.newFlags("find")
	from := fs.String("from", "", "first day: "+date.ArgForms)
	to := fs.String("to", "", "last day")
	regex := fs.Bool("regex", false, "PATTERN is a regular expression")
	limit := limitFlag(fs, "matches", "all")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("find takes a PATTERN")
	}
	if err := checkLimit("find", *limit); err != nil {
		return err
	}
	b, err := e.reader(ctx)
	if err != nil {
		return err
	}
	if err := e.checkRange(*from, *to); err != nil {
		return err
	}
	resp, err := b.Find(ctx, api.FindRequest{Pattern: strings.Join(pos, " "), From: *from, To: *to, Regex: *regex, Limit: *limit})
	if err != nil {
		return err
	}
	if *asJSON {
		return e.printJSON(resp)
	}
	w := bufio.NewWriterSize(e.stdout, 64<<10)
	for _, m := range resp.Matches {
		fmt.Fprintf(w, "%s:%d: %s\n", m.Path, m.Line, m.Text)
	}
	return w.Flush()
}
