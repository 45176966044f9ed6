package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/daybook/daybook/internal/cli"
	"github.com/daybook/daybook/internal/tooling/bench"
)

func cmdBench() cli.Command {
	return cli.Command{
		Name: "bench", Args: "[--years 1,5] [--seed S] [--cache DIR] [--quick] [--keep] [--json]",
		Summary: "measure backfill, index, recall, the scan and the daemon on generated corpora",
		Help: `For each size in --years, bench generates a corpus (or reuses the one in
--cache made with the same years and seed) and works on a copy of it:
"daybook consolidate" (the backfill) and "daybook reindex" run as child
processes and give wall time, CPU time and peak RSS; a second consolidate
times the run with nothing to do; recall is timed in this process, through
the socket of a daemon started on the copy, and through "daybook recall"
run as a child, in turns with "daybook --version" (the front's start;
recall less it is what the daemon adds); "daybook find" is timed against
grep -r and ripgrep (rg) on the same files, the commands taking turns, beside
"daybook --version" (the front, which runs find itself with no daemon),
"rg --version" and a Go hello-world built by the go command on PATH (each
program's start, with its page faults; find less that start compares the
scans). The daemon's RSS is read once it is idle. The children
run the front daybook beside daybook-core, as people do.

It never touches the data dir, config or daemon of --dir: every child gets
its own. 1 and 5 years take a few minutes on two cores; 20 years (--years
1,5,20) is opt-in and takes about four times the 5 years. --quick measures
fewer times (figures are rough) and defaults to 1 year. The figures that
compare across machines are the ratios: find ÷ ripgrep, the start ÷ the
hello-world's, and the growth rows.`,
		Run: runBench,
	}
}

func runBench(ctx context.Context, e *cli.Env, args []string) error {
	fs := e.NewFlags("bench")
	yearsFlag := fs.String("years", "", "corpus sizes in years, comma-separated (default 1,5; 1 with --quick)")
	seed := fs.Uint64("seed", 1, "gen seed")
	cache := fs.String("cache", "", "corpus cache (default $XDG_CACHE_HOME/daybook-bench)")
	quick := fs.Bool("quick", false, "fewer repetitions: check that it all runs")
	keep := fs.Bool("keep", false, "keep each work dir (summaries and index) and name it")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return cli.Usagef("bench takes no arguments, only flags (run \"daybook help bench\")")
	}
	spec := *yearsFlag
	if spec == "" {
		spec = "1,5"
		if *quick {
			spec = "1"
		}
	}
	var years []int
	for _, f := range strings.Split(spec, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 50 {
			return cli.Usagef("bench: --years %q: %q is not a number of years from 1 to 50", spec, f)
		}
		years = append(years, n)
	}
	if *cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return cli.Usagef("bench: no cache dir (%v): give --cache", err)
		}
		*cache = filepath.Join(dir, "daybook-bench")
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("bench: finding the daybook binary: %w", err)
	}
	log := e.Logger()
	// The children are run as people run daybook: through the front beside
	// this binary, whose start is the one to time.
	if f := frontBeside(exe); f != "" {
		exe = f
	} else {
		log.Warn("no front daybook beside daybook-core: the start and the CLI's recall are daybook-core's", "exe", exe)
	}
	rep, err := bench.Run(ctx, bench.Options{
		Years: years, Seed: *seed, Cache: *cache, Exe: exe, Quick: *quick, Keep: *keep,
		Command: "daybook bench " + strings.Join(args, " "), Log: log,
	})
	if err != nil && len(rep.Sizes) == 0 {
		return fmt.Errorf("bench: %w", err)
	}
	if *asJSON {
		if jerr := e.PrintJSON(rep); jerr != nil {
			return jerr
		}
	} else if terr := bench.WriteTable(e.Stdout, rep); terr != nil {
		return terr
	}
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	return nil
}

// frontBeside returns the front daybook in exe's folder, or "" when there
// is none.
func frontBeside(exe string) string {
	name := "daybook"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	f := filepath.Join(filepath.Dir(exe), name)
	if st, err := os.Stat(f); err != nil || st.IsDir() {
		return ""
	}
	return f
}
