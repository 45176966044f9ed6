package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
)

func CmdRecall() Command {
	return Command{
		Name: "recall", Args: "QUERY [--limit N] [--from D] [--to D] [--level L] [--json] [--explain]",
		Summary: "recall what daybook remembers about a query, best first",
		Help: `The drill searches the best years, the best months inside them, the best days
inside those and the best entries inside the days, each score fusing full-text
BM25 with vector similarity. Without summaries it scans the day files.
Temporal phrases in QUERY ("last March", "in 2025", "yesterday") narrow the
search like --from and --to. A word also finds the longer words it starts
("argon" finds "Argon2"), at a lower weight. Prints SCORE LEVEL PERIOD
PATH:LINE and a snippet with the matched words in **bold**; a hit that matched
nothing (score 0) is not shown. --level entry lists free-text lines as
entries too.`,
		Run: runRecall,
	}
}

func runRecall(ctx context.Context, e *Env, args []string) error {
	fs := e.NewFlags("recall")
	limit := LimitFlag(fs, "results", "recall.limit in the config, 10")
	from := fs.String("from", "", "first day: "+date.ArgForms)
	to := fs.String("to", "", "last day")
	level := fs.String("level", "", "only results of this level: year, month, day, entry or line")
	mode := fs.String("mode", "", "drill (default), bm25, vector or linear")
	asJSON := fs.Bool("json", false, `print {"query","results"} as JSON`)
	explain := fs.Bool("explain", false, "show the drill path and each score's parts")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if strings.TrimSpace(strings.Join(pos, " ")) == "" {
		return Usagef("recall takes a QUERY (words to look for); got none")
	}
	if err := CheckLimit("recall", *limit); err != nil {
		return err
	}
	b, err := e.Reader(ctx)
	if err != nil {
		return err
	}
	if err := e.CheckRange(*from, *to); err != nil {
		return err
	}
	resp, err := b.Recall(ctx, daybook.RecallRequest{Query: strings.Join(pos, " "), From: *from, To: *to,
		Level: *level, Limit: *limit, Explain: *explain, Mode: *mode})
	if err != nil {
		return err
	}
	if *asJSON {
		return e.PrintJSON(resp)
	}
	if *explain {
		fmt.Fprintf(e.Stdout, "method: %s", resp.Method)
		if resp.Range != "" {
			fmt.Fprintf(e.Stdout, "  range: %s", resp.Range)
		}
		fmt.Fprintln(e.Stdout)
		if len(resp.Path) > 0 {
			fmt.Fprintf(e.Stdout, "drill: %s\n", strings.Join(resp.Path, " "))
		}
	}
	if len(resp.Results) == 0 {
		fmt.Fprintln(e.Stderr, "nothing recalled")
		return nil
	}
	for _, r := range resp.Results {
		fmt.Fprintf(e.Stdout, "%.3f  %-5s  %-10s  %s:%d\n", r.Score, r.Level, r.Period, r.Path, r.Line)
		fmt.Fprintf(e.Stdout, "    %s\n", r.Snippet)
		if r.SupersededBy != "" {
			fmt.Fprintf(e.Stdout, "    superseded by %s\n", r.SupersededBy)
		}
		if x := r.Explain; x != nil {
			fmt.Fprintf(e.Stdout, "    in %s: bm25 %.3f (#%d)  cosine %.3f (#%d)  fused %.3f\n",
				x.Parent, x.BM25, x.BM25Rank, x.Cosine, x.CosineRank, x.Fused)
			if d := x.Day; d != nil {
				fmt.Fprintf(e.Stdout, "    day %s: entries %.3f  summary %.3f  → %.3f\n", r.Day, d.Entries, d.Summary, d.Score)
			}
		}
	}
	return nil
}
