package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/daybook/daybook"
)

func CmdRemember() Command {
	return Command{
		Name: "remember", Args: "TEXT [--kind K] [--tag T]... [--at TIME]",
		Summary: "append an entry to its day file and print the path:line written",
		Help: `TEXT may hold #tags. --at takes HH:MM (today), "YYYY-MM-DD HH:MM" or RFC 3339;
the entry goes to the day of that time in the configured time zone, which must
fall from 1900-01-01 to two days past today (dates.earliest and
dates.ahead_days in the config). Flags go before "--"; everything after it is
TEXT, so text that starts with "-" is written: daybook remember -- "-- text".`,
		Run: runRemember,
	}
}

func runRemember(ctx context.Context, e *Env, args []string) error {
	fs := e.NewFlags("remember")
	kind := fs.String("kind", "", "fact, decision, note, todo or event (default note)")
	var tags StringList
	fs.Var(&tags, "tag", "a tag, without # (repeatable)")
	at := fs.String("at", "", "time of the entry (default now)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return Usagef("remember takes the TEXT to remember")
	}
	b, err := e.Backend(ctx)
	if err != nil {
		return err
	}
	resp, err := b.Remember(ctx, daybook.RememberRequest{Text: strings.Join(pos, " "), Kind: *kind, Tags: tags, At: *at})
	if err != nil {
		return err
	}
	if *asJSON {
		return e.PrintJSON(resp)
	}
	fmt.Fprintf(e.Stdout, "%s:%d\n", resp.Path, resp.Line)
	return nil
}
