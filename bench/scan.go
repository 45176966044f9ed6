package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/daybook/daybook/api"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/gen"
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
// ripgrep on the same day files and pattern. The first run of each warms
// the page cache and is not counted.
func measureScan(ctx context.Context, w workDir, pattern string, n int, run *Size) (notes []string, err error) {
	days := filepath.Join(w.dir, dayfiles.DaysDir)
	out, _, err := w.run(ctx, "find", "--json", pattern)
	if err != nil {
		return nil, err
	}
	var fr api.FindResponse
	if err := json.Unmarshal(out, &fr); err != nil {
		return nil, fmt.Errorf("reading daybook find --json: %w", err)
	}
	run.ScanPattern, run.ScanMatches = pattern, len(fr.Matches)
	time1 := func(mk func() *exec.Cmd) (Latency, error) {
		var ds []time.Duration
		for i := range n + 1 {
			_, p, err := runCmd(mk(), false)
			if err != nil {
				return Latency{}, err
			}
			if i > 0 {
				ds = append(ds, time.Duration(p.Seconds*float64(time.Second)))
			}
		}
		return summarise(ds), nil
	}
	if run.Find, err = time1(func() *exec.Cmd { return w.command(ctx, "find", pattern) }); err != nil {
		return nil, err
	}
	if run.Grep, err = time1(func() *exec.Cmd { return exec.CommandContext(ctx, "grep", "-r", "-n", "-i", "-F", pattern, days) }); err != nil {
		return nil, err
	}
	if run.Grep.P50 > 0 {
		run.FindOverGrep = ratio(run.Find.P50, run.Grep.P50)
	}
	rg, lerr := exec.LookPath("rg")
	if lerr != nil {
		return []string{"ripgrep (rg) is not installed: the scan is compared with grep only"}, nil
	}
	if run.Ripgrep, err = time1(func() *exec.Cmd { return exec.CommandContext(ctx, rg, "-n", "-i", "-F", pattern, days) }); err != nil {
		return nil, err
	}
	if run.Ripgrep.P50 > 0 {
		run.FindOverRg = ratio(run.Find.P50, run.Ripgrep.P50)
	}
	return nil, nil
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return float64(int(a/b*100+0.5)) / 100
}
