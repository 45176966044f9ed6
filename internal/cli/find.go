package cli

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/util/date"
)

func CmdFind() Command {
	return Command{
		Name: "find", Args: "PATTERN [--from D] [--to D] [--regex] [--limit N]",
		Summary: "scan day files for a pattern, newest first",
		Help: `A literal PATTERN is case-insensitive unless it has an upper-case letter;
--regex takes RE2 syntax and is case-sensitive ((?i) makes it not).
Only the year and month folders in range are read.
Prints days/YYYY/MM/DD.md:LINE: TEXT.`,
		Run: runFind,
	}
}

func runFind(ctx context.Context, e *Env, args []string) error {
	fs := e.NewFlags("find")
	from := fs.String("from", "", "first day: "+date.ArgForms)
	to := fs.String("to", "", "last day")
	regex := fs.Bool("regex", false, "PATTERN is a regular expression")
	limit := LimitFlag(fs, "matches", "all")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return Usagef("find takes a PATTERN")
	}
	if err := CheckLimit("find", *limit); err != nil {
		return err
	}
	b, err := e.Reader(ctx)
	if err != nil {
		return err
	}
	if err := e.CheckRange(*from, *to); err != nil {
		return err
	}
	resp, err := b.Find(ctx, api.FindRequest{Pattern: strings.Join(pos, " "), From: *from, To: *to, Regex: *regex, Limit: *limit})
	if err != nil {
		return err
	}
	if *asJSON {
		return e.PrintJSON(resp)
	}
	w := bufio.NewWriterSize(e.Stdout, 64<<10)
	for _, m := range resp.Matches {
		fmt.Fprintf(w, "%s:%d: %s\n", m.Path, m.Line, m.Text)
	}
	return w.Flush()
}
