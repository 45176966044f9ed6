package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/daybook/daybook/internal/adapters/api"
)

func cmdRemember() command {
	return command{
		name: "remember", args: "TEXT [--kind K] [--tag T]... [--at TIME]",
		summary: "append an entry to its day file and print the path:line written",
		help: `TEXT may hold #tags. --at takes HH:MM (today), "YYYY-MM-DD HH:MM" or RFC 3339;
the entry goes to the day of that time in the configured time zone, which must
fall from 1900-01-01 to two days past today (dates.earliest and
dates.ahead_days in the config). Flags go before "--"; everything after it is
TEXT, so text that starts with "-" is written: daybook remember -- "-- text".`,
		run: runRemember,
	}
}

func runRemember(ctx context.Context, e *env, args []string) error {
	fs := e.newFlags("remember")
	kind := fs.String("kind", "", "fact, decision, note, todo or event (default note)")
	var tags stringList
	fs.Var(&tags, "tag", "a tag, without # (repeatable)")
	at := fs.String("at", "", "time of the entry (default now)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("remember takes the TEXT to remember")
	}
	b, err := e.backend(ctx)
	if err != nil {
		return err
	}
	resp, err := b.Remember(ctx, api.RememberRequest{Text: strings.Join(pos, " "), Kind: *kind, Tags: tags, At: *at})
	if err != nil {
		return err
	}
	if *asJSON {
		return e.printJSON(resp)
	}
	fmt.Fprintf(e.stdout, "%s:%d\n", resp.Path, resp.Line)
	return nil
}
