package bench

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// row is one line of the table: a figure of every size.
type row struct {
	name   string
	target string
	cell   func(s Size) string
}

func mib(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }
func ms(x float64) string {
	if x >= 100 {
		return fmt.Sprintf("%.0f ms", x)
	}
	return fmt.Sprintf("%.2f ms", x)
}
func secs(x float64) string { return fmt.Sprintf("%.1f s", x) }
func lat(l Latency) string {
	if l.N == 0 {
		return "-"
	}
	return fmt.Sprintf("%s / %s", ms(l.P50), ms(l.P99))
}

// Rows are the table's rows in order; tests check that each is printed.
var rows = []row{
	{"corpus", "", func(s Size) string {
		return fmt.Sprintf("%d days, %dk lines, %.0f MB", s.Days, s.Lines/1000, float64(s.Bytes)/1e6)
	}},
	{"backfill wall (cpu)", "", func(s Size) string {
		return fmt.Sprintf("%s (%s)", secs(s.Backfill.Seconds), secs(s.Backfill.CPUSeconds))
	}},
	{"backfill peak RSS", "", func(s Size) string { return mib(s.Backfill.PeakRSS) }},
	{"backfill per 1000 days", "linear", func(s Size) string { return secs(s.Backfill.Seconds / float64(s.Days) * 1000) }},
	{"reindex wall (cpu)", "", func(s Size) string {
		return fmt.Sprintf("%s (%s)", secs(s.Reindex.Seconds), secs(s.Reindex.CPUSeconds))
	}},
	{"reindex peak RSS", "≤ 512 MiB @20y", func(s Size) string { return mib(s.Reindex.PeakRSS) }},
	{"backfill + reindex", "≤ 15 s @5y, 60 s @20y", func(s Size) string { return secs(s.BuildSeconds) }},
	{"index on disk", "", func(s Size) string { return fmt.Sprintf("%s, %d docs", mib(s.IndexBytes), s.IndexDocs) }},
	{"index ÷ day files", "≤ 3×", func(s Size) string {
		if s.Bytes == 0 {
			return "-"
		}
		return fmt.Sprintf("%.2f×", float64(s.IndexBytes)/float64(s.Bytes))
	}},
	{"no-change rerun (run / exec)", "≤ 100 ms", func(s Size) string {
		return fmt.Sprintf("%s / %s", ms(s.NoChangeMS), ms(s.NoChange.Seconds*1000))
	}},
	{"recall in process p50 / p99", "p50 ≤ 2 ms", func(s Size) string { return lat(s.RecallInProcess) }},
	{"recall via socket p50 / p99", "", func(s Size) string { return lat(s.RecallSocket) }},
	{"recall via CLI p50 / p99", "p50 ≤ 10 ms", func(s Size) string { return lat(s.RecallCLI) }},
	{"recall via CLI − start (--version, in turns)", "≤ 3 ms @5y", func(s Size) string {
		if s.StartDaemonUp.N == 0 {
			return "-"
		}
		return fmt.Sprintf("%s (%s − %s)", ms(s.RecallCLILessStart), ms(s.RecallCLI.P50), ms(s.StartDaemonUp.P50))
	}},
	{"daemon idle RSS (peak)", "≤ 150 MiB", func(s Size) string {
		return fmt.Sprintf("%s (%s)", mib(s.DaemonIdleRSS), mib(s.DaemonPeakRSS))
	}},
	{"daemon RSS at rest after recalls", "≤ 64 MiB @5y, 128 @20y", func(s Size) string {
		if s.DaemonRecalledRSS == 0 {
			return "-"
		}
		return fmt.Sprintf("%s (after %d)", mib(s.DaemonRecalledRSS), s.RecallSocket.N)
	}},
	{"find p50", "", func(s Size) string {
		return fmt.Sprintf("%s (%q, %d matches)", ms(s.Find.P50), s.ScanPattern, s.ScanMatches)
	}},
	{"grep -r p50", "", func(s Size) string { return ms(s.Grep.P50) }},
	{"ripgrep p50", "", func(s Size) string {
		if s.Ripgrep.N == 0 {
			return "not installed"
		}
		return ms(s.Ripgrep.P50)
	}},
	{"find ÷ ripgrep (÷ grep)", "≤ 1.5×", func(s Size) string {
		if s.FindOverRg == 0 {
			return fmt.Sprintf("- (%.2f×)", s.FindOverGrep)
		}
		return fmt.Sprintf("%.2f× (%.2f×)", s.FindOverRg, s.FindOverGrep)
	}},
	{"start: daybook --version (find's) / rg --version", "", func(s Size) string {
		if s.RgStart.N == 0 {
			return ms(s.FrontStart.P50) + " / -"
		}
		return ms(s.FrontStart.P50) + " / " + ms(s.RgStart.P50)
	}},
	{"start: daybook --version ÷ Go hello-world", "≤ 1.5×", func(s Size) string {
		if s.Hello.N == 0 {
			return "-"
		}
		return fmt.Sprintf("%.2f× (%s / %s)", s.StartOverHello, ms(s.FrontStart.P50), ms(s.Hello.P50))
	}},
	{"start: minor page faults (hello-world's)", "", func(s Size) string {
		if s.Hello.N == 0 {
			return fmt.Sprintf("%d (-)", s.StartFaults)
		}
		return fmt.Sprintf("%d (%d)", s.StartFaults, s.HelloFaults)
	}},
	{"find less start (÷ rg less start)", "", func(s Size) string {
		scan := ms(s.Find.P50 - s.FrontStart.P50)
		if s.ScanOverRg == 0 {
			return scan + " (-)"
		}
		return fmt.Sprintf("%s (%.2f×)", scan, s.ScanOverRg)
	}},
}

// growthRows compare every size with the one before it (5 with 1 year,
// 20 with 5, as the targets do): ratios from one run.
var growthRows = []row{
	{"recall p50 ÷ size before", "< 2× 5y→20y", nil},
	{"backfill per day ÷ size before", "≈ 1×", nil},
}

// WriteTable prints the report as one table, a column per size.
func WriteTable(w io.Writer, r Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := []string{"", "target"}
	for _, s := range r.Sizes {
		head = append(head, fmt.Sprintf("%d years", s.Years))
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, rw := range rows {
		cells := []string{rw.name, rw.target}
		for _, s := range r.Sizes {
			cells = append(cells, rw.cell(s))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	if len(r.Sizes) > 1 {
		for i, rw := range growthRows {
			cells := []string{rw.name, rw.target, "-"}
			for k, s := range r.Sizes[1:] {
				base := r.Sizes[k]
				if i == 0 {
					cells = append(cells, fmt.Sprintf("%.2f×", ratio(s.RecallInProcess.P50, base.RecallInProcess.P50)))
				} else {
					cells = append(cells, fmt.Sprintf("%.2f×", ratio(s.Backfill.Seconds/float64(s.Days), base.Backfill.Seconds/float64(base.Days))))
				}
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	m := r.Machine
	fmt.Fprintf(w, "\nmachine: %s, %d CPUs, %d MiB, %s %s, load %s at the start; %.0f s in all\n",
		m.CPU, m.CPUs, m.MemoryMiB, m.Go, m.OS, m.Load, r.Seconds)
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	return nil
}
