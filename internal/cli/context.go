package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/daybook/daybook/internal/adapters/api"
)

func CmdContext() Command {
	return Command{
		Name: "context", Args: "[QUERY] [--budget TOKENS] [--json]",
		Summary: "print the context block an agent should read: foundation, summaries, recent entries",
		Help: `Prints one markdown block within a token budget (default context.budget, 4000;
a token is taken to be 4 characters): foundation.md from the data dir, whole;
then memory summaries, the yearly ones, this year's monthly ones and the last
days' daily ones, with QUERY's recall hits first; then the latest entries
verbatim, newest last. context.summary and context.recent share out what the
foundation leaves. What does not fit is left out by a utility score: how
often recall and expand returned the item, its relevance to QUERY, and its
recency. Every item carries its id in [brackets] for "daybook expand".
Warnings (foundation.md alone over the budget) go to stderr as well.`,
		Run: runContext,
	}
}

func runContext(ctx context.Context, e *Env, args []string) error {
	fs := e.NewFlags("context")
	budget := fs.Int("budget", 0, "tokens at most (default from config, context.budget)")
	asJSON := fs.Bool("json", false, "print the block, its items and the budget spent as JSON")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if *budget < 0 {
		return Usagef("context: --budget %d is negative", *budget)
	}
	b, err := e.Reader(ctx)
	if err != nil {
		return err
	}
	resp, err := b.Context(ctx, api.ContextRequest{Query: strings.Join(pos, " "), Budget: *budget})
	if err != nil {
		return err
	}
	if *asJSON {
		return e.PrintJSON(resp)
	}
	fmt.Fprint(e.Stdout, resp.Markdown)
	for _, w := range resp.Warnings {
		fmt.Fprintf(e.Stderr, "daybook: warning: %s\n", w)
	}
	return nil
}
