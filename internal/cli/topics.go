package cli

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/daybook/daybook"
)

func CmdTopics() Command {
	return Command{
		Name: "topics", Args: "[--limit N | --all] [--json]",
		Summary: "list the topics: tags, people and projects, self, user, system",
		Help: `Lists the topics the entries name, most entries first: #tags, the people and
projects named in them (capitalised names used mid-sentence, @handles), and
the base topics that always exist: self (#self, or first-person entries),
user (#user, or "the user") and system (#system, "the system" or "daybook").
Prints COUNT KIND NAME FIRST..LAST: the first 30 (--limit N for another
number, --all for every one; --limit 0 is the default, 30). Only day files
changed since the last run are read again.`,
		Run: runTopics,
	}
}

// defaultTopicsLimit is how many topics "daybook topics" lists.
const defaultTopicsLimit = 30

func runTopics(ctx context.Context, e *Env, args []string) error {
	fs := e.NewFlags("topics")
	limit := LimitFlag(fs, "topics", "30; --all for every one")
	all := fs.Bool("all", false, "list every topic")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if err := ExactArgs("topics", pos, 0, "no arguments"); err != nil {
		return err
	}
	if err := CheckLimit("topics", *limit); err != nil {
		return err
	}
	switch {
	case *all && *limit > 0:
		return Usagef("topics: --all and --limit %d: give one", *limit)
	case *all:
		*limit = 0 // the API's 0 is every topic
	case *limit == 0:
		*limit = defaultTopicsLimit
	}
	b, err := e.Reader(ctx)
	if err != nil {
		return err
	}
	resp, err := b.Topics(ctx, daybook.TopicsRequest{Limit: *limit})
	if err != nil {
		return err
	}
	if *asJSON {
		return e.PrintJSON(resp)
	}
	tw := tabwriter.NewWriter(e.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, t := range resp.Topics {
		seen := ""
		if t.Count > 0 {
			seen = t.First + ".." + t.Last
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t\n", t.Count, t.Kind, t.Name, seen)
	}
	tw.Flush()
	if len(resp.Topics) < resp.Total {
		fmt.Fprintf(e.Stderr, "%d of %d topics (--all lists all)\n", len(resp.Topics), resp.Total)
	}
	return nil
}
