package cli

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/util/safetext"
)

func CmdFind() Command {
	return Command{
		Name: "find", Args: "PATTERN [--from D] [--to D] [--regex] [--limit N]",
		Summary: "scan day files for a pattern, newest first",
		Help: `A literal PATTERN is case-insensitive unless it has an upper-case letter;
--regex takes RE2 syntax and is case-sensitive ((?i) makes it not).
Only the year and month folders in range are read.
Prints days/YYYY/MM/DD.md:LINE: TEXT, with control characters in TEXT
(a terminal's escape sequences among them) escaped, as \x1b; --json has
the exact text.
A day file holding conflict markers (<<<<<<<, =======, >>>>>>>) is not
searched: find names each such file and the line of its first marker on
stderr after the matches, and exits 1, so that a script does not take an
incomplete search for a complete one (--json lists them in "skipped").`,
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
	resp, err := b.Find(ctx, daybook.FindRequest{Pattern: strings.Join(pos, " "), From: *from, To: *to, Regex: *regex, Limit: *limit})
	if err != nil {
		return err
	}
	if *asJSON {
		if err := e.PrintJSON(resp); err != nil {
			return err
		}
		return skippedErr(resp.Skipped)
	}
	w := bufio.NewWriterSize(e.Stdout, 64<<10)
	for _, m := range resp.Matches {
		fmt.Fprintf(w, "%s:%d: %s\n", m.Path, m.Line, safetext.Escape(m.Text))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return skippedErr(resp.Skipped)
}

// skippedErr names the day files find did not search: the search is not
// complete, and the exit status says so.
func skippedErr(skipped []daybook.Skipped) error {
	if len(skipped) == 0 {
		return nil
	}
	var parts []string
	for _, s := range skipped {
		parts = append(parts, fmt.Sprintf("%s:%d", s.Path, s.Line))
	}
	files := "1 day file"
	if len(skipped) > 1 {
		files = fmt.Sprintf("%d day files", len(skipped))
	}
	return fmt.Errorf("find: skipped %s holding conflict markers (first marker at %s): resolve them, keeping what belongs and removing the <<<<<<<, =======, >>>>>>> lines, and find searches them again",
		files, strings.Join(parts, ", "))
}
