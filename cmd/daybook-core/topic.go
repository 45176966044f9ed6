package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/daybook/daybook/internal/adapters/api"
)

func cmdTopic() command {
	return command{
		name: "topic", args: "NAME [--limit N] [--json]",
		summary: "show one topic's pyramid: summary lines that mention it, then its entries",
		help: `NAME is a topic as "daybook topics" lists it: #auth (or auth), a name such
as "Dana Reyes" or @maya, or self, user, system. Prints the lines of the
yearly, monthly and daily summaries that mention it, each level newest
first, then its latest entries, newest first, each with its id.`,
		run: runTopic,
	}
}

func runTopic(ctx context.Context, e *env, args []string) error {
	fs := e.newFlags("topic")
	limit := limitFlag(fs, "lines per level and entries", "10")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("topic takes a NAME (run \"daybook topics\" for the list)")
	}
	if err := checkLimit("topic", *limit); err != nil {
		return err
	}
	b, err := e.reader(ctx)
	if err != nil {
		return err
	}
	resp, err := b.Topic(ctx, api.TopicRequest{Name: strings.Join(pos, " "), Limit: *limit})
	if err != nil {
		return err
	}
	if *asJSON {
		return e.printJSON(resp)
	}
	t := resp.Topic
	fmt.Fprintf(e.stdout, "%s (%s): %d entries", t.Name, t.Kind, t.Count)
	if t.Count > 0 {
		fmt.Fprintf(e.stdout, ", %s..%s", t.First, t.Last)
	}
	fmt.Fprintln(e.stdout)
	level := ""
	for _, l := range resp.Summaries {
		if l.Level != level {
			level = l.Level
			fmt.Fprintf(e.stdout, "\n%s summaries:\n", strings.ToUpper(level[:1])+level[1:])
		}
		fmt.Fprintf(e.stdout, "  [%s] %s:%d\n    %s\n", l.ID, l.Path, l.Line, l.Text)
	}
	if len(resp.Entries) > 0 {
		fmt.Fprintln(e.stdout, "\nEntries:")
	}
	for _, en := range resp.Entries {
		kind := ""
		if en.Kind != "note" {
			kind = "[" + en.Kind + "] "
		}
		fmt.Fprintf(e.stdout, "  [%s] %s%s\n", en.ID, kind, strings.ReplaceAll(en.Text, "\n", "\n    "))
	}
	return nil
}
