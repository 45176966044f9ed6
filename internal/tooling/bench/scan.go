package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/internal/tooling/gen"
)

// scanPattern picks the word to scan for: the longest word of the first
// planted fact's key, so that it is in the corpus and fairly rare.
func scanPattern(facts []gen.Fact) string {
	best := "review"
	for _, f := range facts {
		for _, w := range strings.Fields(strings.ToLower(f.Key)) {
			if len(w) > len(best) || best == "review" && len(w) >= 5 {
				best = w
			}
		}
		if best != "review" {
			break
		}
	}
	return best
}

// measureScan times "daybook find" (no daemon up) against grep -r and
// ripgrep on the same day files and pattern, and the start of each program
// doing nothing ("daybook --version", the front, which runs find itself
// when no daemon answers, and "rg --version"), the part of find's time that
// is not the scan. The commands take turns, one run each a round, so
// that the machine's drift weighs on all alike; the first round warms the
// page cache and is not counted.
func measureScan(ctx context.Context, w workDir, pattern string, n int, run *Size) (notes []string, err error) {
	days := filepath.Join(w.dir, dayfiles.DaysDir)
	out, _, err := w.run(ctx, "find", "--json", pattern)
	if err != nil {
		return nil, err
	}
	var fr daybook.FindResponse
	if err := json.Unmarshal(out, &fr); err != nil {
		return nil, fmt.Errorf("reading daybook find --json: %w", err)
	}
	run.ScanPattern, run.ScanMatches = pattern, len(fr.Matches)
	type timed struct {
		mk     func() *exec.Cmd
		out    *Latency
		faults *int64 // the median, when wanted
		ds     []time.Duration
		ps     []Proc
	}
	cmds := []*timed{
		{mk: func() *exec.Cmd { return w.command(ctx, "find", pattern) }, out: &run.Find},
		{mk: func() *exec.Cmd { return w.command(ctx, "--version") }, out: &run.FrontStart, faults: &run.StartFaults},
		{mk: func() *exec.Cmd { return exec.CommandContext(ctx, "grep", "-r", "-n", "-i", "-F", pattern, days) }, out: &run.Grep},
	}
	if hello, herr := buildHello(ctx, filepath.Dir(filepath.Dir(w.dir))); herr != nil {
		notes = append(notes, fmt.Sprintf("no Go hello-world to compare daybook's start with: %v", herr))
	} else {
		cmds = append(cmds, &timed{mk: func() *exec.Cmd { return exec.CommandContext(ctx, hello) }, out: &run.Hello,
			faults: &run.HelloFaults})
	}
	if rg, lerr := exec.LookPath("rg"); lerr != nil {

		notes = append(notes, "ripgrep (rg) is not installed: the scan is compared with grep only")
	} else {
		cmds = append(cmds,
			&timed{mk: func() *exec.Cmd { return exec.CommandContext(ctx, rg, "-n", "-i", "-F", pattern, days) }, out: &run.Ripgrep},
			&timed{mk: func() *exec.Cmd { return exec.CommandContext(ctx, rg, "--version") }, out: &run.RgStart})
	}
	for i := range n + 1 {
		for _, c := range cmds {
			_, p, err := runCmd(c.mk(), false)
			if err != nil {
				return nil, err
			}
			if i > 0 {
				c.ds = append(c.ds, time.Duration(p.Seconds*float64(time.Second)))
				c.ps = append(c.ps, p)
			}
		}
	}
	for _, c := range cmds {
		*c.out = summarise(c.ds)
		if c.faults != nil {
			*c.faults = median(c.ps, func(p Proc) int64 { return p.MinorFaults })
		}
	}
	run.FindOverGrep = ratio(run.Find.P50, run.Grep.P50)
	run.FindOverRg = ratio(run.Find.P50, run.Ripgrep.P50)
	run.ScanOverRg = ratio(run.Find.P50-run.FrontStart.P50, run.Ripgrep.P50-run.RgStart.P50)
	run.StartOverHello = ratio(run.FrontStart.P50, run.Hello.P50)
	return notes, nil
}

// median returns the median of f over ps.
func median(ps []Proc, f func(Proc) int64) int64 {
	if len(ps) == 0 {
		return 0
	}
	xs := make([]int64, len(ps))
	for i, p := range ps {
		xs[i] = f(p)
	}
	slices.Sort(xs)
	return xs[len(xs)/2]
}

func ratio(a, b float64) float64 {
	if b <= 0 || a <= 0 {
		return 0
	}
	return float64(int(a/b*100+0.5)) / 100
}
