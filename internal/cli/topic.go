package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/daybook/daybook"
)

func CmdTopic() Command {
	return Command{
		Name: "topic", Args: "NAME [--limit N] [--json]",
		Summary: "show one topic's pyramid: summary lines that mention it, then its entries",
		Help: `NAME is a topic as "daybook topics" lists it: #auth (or auth), a name such
as "Dana Reyes" or @maya, or self, user, system. Prints the lines of the
yearly, monthly and daily summaries that mention it, each level newest
first, then its latest entries, newest first, each with its id.`,
		Run: runTopic,
	}
}

func runTopic(ctx context.Context, e *Env, args []string) error {
	fs := e.NewFlags("topic")
	limit := LimitFlag(fs, "lines per level and entries", "10")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return Usagef("topic takes a NAME (run \"daybook topics\" for the list)")
	}
	if err := CheckLimit("topic", *limit); err != nil {
		return err
	}
	b, err := e.Reader(ctx)
	if err != nil {
		return err
	}
	resp, err := b.Topic(ctx, daybook.TopicRequest{Name: strings.Join(pos, " "), Limit: *limit})
	if err != nil {
		return err
	}
	if *asJSON {
		return e.PrintJSON(resp)
	}
	t := resp.Topic
	fmt.Fprintf(e.Stdout, "%s (%s): %d entries", t.Name, t.Kind, t.Count)
	if t.Count > 0 {
		fmt.Fprintf(e.Stdout, ", %s..%s", t.First, t.Last)
	}
	fmt.Fprintln(e.Stdout)
	level := ""
	for _, l := range resp.Summaries {
		if l.Level != level {
			level = l.Level
			fmt.Fprintf(e.Stdout, "\n%s summaries:\n", strings.ToUpper(level[:1])+level[1:])
		}
		fmt.Fprintf(e.Stdout, "  [%s] %s:%d\n    %s\n", l.ID, l.Path, l.Line, l.Text)
	}
	if len(resp.Entries) > 0 {
		fmt.Fprintln(e.Stdout, "\nEntries:")
	}
	for _, en := range resp.Entries {
		kind := ""
		if en.Kind != "note" {
			kind = "[" + en.Kind + "] "
		}
		fmt.Fprintf(e.Stdout, "  [%s] %s%s\n", en.ID, kind, strings.ReplaceAll(en.Text, "\n", "\n    "))
	}
	return nil
}
