package cli

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/daybook/daybook"
)

func CmdStats() Command {
	return Command{
		Name: "stats", Args: "[--json]",
		Summary: "describe the memory: entries, summaries, coverage, compression, topics, busiest periods",
		Help: `Prints the entries and days, the summaries per level, coverage (the share of
closed periods with something in them whose summary is current), compression
(tokens of the raw day files a default context covers over the tokens of
that context), the top topics and the busiest days, months and years, the
index's bytes on disk and their ratio to the day files', when a daemon
answers its resident memory, and what Claude Code's context hooks handed
over: tokens per session, per session start and per prompt
(docs/agents.md).`,
		Run: runStats,
	}
}

func runStats(ctx context.Context, e *Env, args []string) error {
	fs := e.NewFlags("stats")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if err := ExactArgs("stats", pos, 0, "no arguments"); err != nil {
		return err
	}
	b, err := e.Reader(ctx)
	if err != nil {
		return err
	}
	resp, err := b.Stats(ctx, daybook.StatsRequest{})
	if err != nil {
		return err
	}
	if *asJSON {
		return e.PrintJSON(resp)
	}
	tw := tabwriter.NewWriter(e.Stdout, 0, 0, 2, ' ', 0)
	line := func(k, format string, args ...any) { fmt.Fprintf(tw, "%s\t%s\n", k, fmt.Sprintf(format, args...)) }
	line("entries", "%d in %d days", resp.Entries, resp.Days)
	s := resp.Summaries
	line("summaries", "%d daily, %d monthly, %d yearly", s["day"], s["month"], s["year"])
	var cov []string
	for _, l := range []string{"day", "month", "year"} {
		if c, ok := resp.Coverage[l]; ok {
			cov = append(cov, fmt.Sprintf("%s %.0f%%", l, 100*c))
		}
	}
	if len(cov) > 0 {
		line("coverage", "%s", strings.Join(cov, ", "))
	}
	if resp.Compression > 0 {
		line("compression", "%.1f× (raw day files a default context covers / its tokens)", resp.Compression)
	}
	var top []string
	for _, t := range resp.TopTopics {
		top = append(top, fmt.Sprintf("%s (%d)", t.Name, t.Count))
	}
	if len(top) > 0 {
		line("top topics", "%s", strings.Join(top, ", "))
	}
	if resp.IndexBytes > 0 {
		line("index", "%.1f MiB on disk, %.1f× the day files (%.1f MiB)", mib(resp.IndexBytes), resp.IndexRatio, mib(resp.DayFileBytes))
	}
	if resp.DaemonRSS > 0 {
		line("daemon memory", "%.0f MiB resident", mib(resp.DaemonRSS))
	}
	if in := resp.Injected; in != nil {
		line("hooks injected", "%d tokens in %d session starts (%d a session, %d a start); %d tokens in %d of %d prompts (%d a prompt)",
			in.StartTokens, in.Starts, (in.StartTokens+in.PromptTokens)/max(in.Sessions, 1), in.StartTokens/max(in.Starts, 1),
			in.PromptTokens, in.Prompts, in.Asked, in.PromptTokens/max(in.Asked, 1))
	}
	for _, l := range []string{"day", "month", "year"} {
		var busy []string
		for _, c := range resp.Busiest[l] {
			busy = append(busy, fmt.Sprintf("%s (%d)", c.Name, c.Count))
		}
		if len(busy) > 0 {
			line("busiest "+l+"s", "%s", strings.Join(busy, ", "))
		}
	}
	return tw.Flush()
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }
