package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/daybook/daybook"
)

func CmdContext() Command {
	return Command{
		Name: "context", Args: "[QUERY] [--budget TOKENS] [--json]",
		Summary: "print the context block an agent should read: foundation, evidence for QUERY, summaries, recent entries",
		Help: `Prints one markdown block within a token budget (default context.budget, 4000;
a token is taken to be 4 characters): foundation.md from the data dir, whole;
then, for a QUERY with words of its own, the evidence: the entries of the
best days that recall finds for it, with their neighbouring entries (a
message and its replies), by day under a heading with the day's file, each
on one line with its line number (":15": "daybook expand DATE:L15" gives it);
then memory summaries: the days of the evidence, the yearly ones, this year's
monthly ones and the last days' daily ones; then the latest entries verbatim,
newest last, only in what is left and, with evidence, only when the evidence
is from the last 14 days. Without a QUERY, or with one of only a date or
stop words, or one that finds no entry, context.summary and context.recent
share out what the foundation leaves, QUERY's recall hits first. What does
not fit is left out by a utility score: how often recall and expand
returned the item, its relevance to QUERY, and its recency. Every item
carries its id in [brackets] for "daybook expand", or its line under its
day. Warnings (foundation.md alone over the budget) go to stderr as well.`,
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
	resp, err := b.Context(ctx, daybook.ContextRequest{Query: strings.Join(pos, " "), Budget: *budget})
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
