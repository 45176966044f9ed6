package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/cli"
	"github.com/daybook/daybook/internal/tooling/gen"
)

func cmdGen() cli.Command {
	return cli.Command{
		Name: "gen", Args: "--years N [--seed S] [--end YYYY-MM-DD] [--updates N] [--jsonl FILE] DIR",
		Summary: "write a generated multi-year corpus for tests and benchmarks",
		Help: `Writes DIR/days/YYYY/MM/DD.md for N years ending at --end (default
yesterday in the local time zone), and DIR/facts.jsonl: planted facts with
the question that should recall each and the days that hold it. The same
seed, years and end date give identical files. DIR must not hold day files
yet. --jsonl also writes every entry as an import line for "daybook import".
--updates N also plants N facts that change one to three times ("is now",
"moved to", "switched to", "no longer", a new number), about half of them
followed by a captured Claude Code session that answers with an old value,
and writes their questions to DIR/updates.jsonl for "daybook eval
--updates"; without it the corpus is the same as before.`,
		Run: runGen,
	}
}

func runGen(ctx context.Context, e *cli.Env, args []string) error {
	fs := e.NewFlagsNoDir("gen")
	years := fs.Int("years", 0, "how many years to generate (1 to 50)")
	seed := fs.Uint64("seed", 1, "random seed")
	end := fs.String("end", "", "last day, YYYY-MM-DD (default yesterday)")
	jsonl := fs.String("jsonl", "", "also write the entries as import lines to FILE")
	updates := fs.Int("updates", 0, fmt.Sprintf("also plant this many facts that change, 0 to %d, with their questions in %s", gen.MaxUpdates(), gen.UpdatesFile))
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if err := cli.ExactArgs("gen", pos, 1, "one DIR to write the corpus into"); err != nil {
		return err
	}
	if err := e.CheckNoDir("gen"); err != nil {
		return err
	}
	if *years < 1 || *years > gen.MaxYears {
		return cli.Usagef("gen: --years must be 1 to %d, got %d", gen.MaxYears, *years)
	}
	last := date.Of(time.Now()).AddDays(-1)
	if *end != "" {
		if last, err = date.Parse(*end); err != nil {
			return cli.Usagef("gen: --end: %v", err)
		}
	}
	if *updates < 0 || *updates > gen.MaxUpdates() {
		return cli.Usagef("gen: --updates must be 0 to %d, got %d", gen.MaxUpdates(), *updates)
	}
	opts := gen.Options{Years: *years, Seed: *seed, End: last, Updates: *updates}
	if *jsonl != "" {
		f, err := os.OpenFile(*jsonl, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return fmt.Errorf("gen: creating --jsonl file: %w", err)
		}
		defer f.Close()
		opts.JSONL = f // Write buffers and flushes
	}
	start := time.Now()
	st, err := gen.Write(pos[0], opts)
	if err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	if f, ok := opts.JSONL.(*os.File); ok {
		if err := f.Close(); err != nil {
			return fmt.Errorf("gen: writing %s: %w", *jsonl, err)
		}
	}
	fmt.Fprintf(e.Stdout, "wrote %s: %d days from %s to %s (--end %s --seed %d), %d entries, %d lines, %.1f MB, %d facts in %s, in %.1fs\n",
		pos[0], st.Days, st.From, st.To, st.To, *seed, st.Entries, st.Lines, float64(st.Bytes)/1e6, st.Facts, gen.FactsFile,
		time.Since(start).Seconds())
	if st.Updates > 0 {
		fmt.Fprintf(e.Stdout, "%d changed facts in %s\n", st.Updates, gen.UpdatesFile)
	}
	return nil
}
