package main

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/daybook/daybook/api"
)

func cmdTopics() command {
	return command{
		name: "topics", args: "[--limit N] [--json]",
		summary: "list the topics: tags, people and projects, self, user, system",
		help: `Lists the topics the entries name, most entries first: #tags, the people and
projects named in them (capitalised names used mid-sentence, @handles), and
the base topics that always exist: self (#self, or first-person entries),
user (#user, or "the user") and system (#system, "the system" or "daybook").
Prints COUNT KIND NAME FIRST..LAST. Only day files changed since the last
run are read again.`,
		run: runTopics,
	}
}

func runTopics(ctx context.Context, e *env, args []string) error {
	fs := e.newFlags("topics")
	limit := fs.Int("limit", 30, "at most N topics; 0 for all")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if err := exactArgs("topics", pos, 0, "no arguments"); err != nil {
		return err
	}
	if *limit < 0 {
		return usagef("topics: --limit %d is negative", *limit)
	}
	b, err := e.backend(ctx)
	if err != nil {
		return err
	}
	resp, err := b.Topics(ctx, api.TopicsRequest{Limit: *limit})
	if err != nil {
		return err
	}
	if *asJSON {
		return e.printJSON(resp)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, t := range resp.Topics {
		seen := ""
		if t.Count > 0 {
			seen = t.First + ".." + t.Last
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t\n", t.Count, t.Kind, t.Name, seen)
	}
	tw.Flush()
	if len(resp.Topics) < resp.Total {
		fmt.Fprintf(e.stderr, "%d of %d topics (--limit 0 lists all)\n", len(resp.Topics), resp.Total)
	}
	return nil
}
