package eval

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/daybook/daybook"
)

// Recaller answers recall requests: the App, or a client of the daemon.
type Recaller interface {
	Recall(ctx context.Context, req daybook.RecallRequest) (daybook.RecallResponse, error)
}

// Modes returns the recall modes in the order the table shows them.
func Modes() []string { return []string{"drill", "bm25", "vector", "linear"} }

// Miss is a question a mode did not answer within the limit.
type Miss struct {
	Line int    `json:"line"` // in the question file
	Q    string `json:"q"`
	Top  string `json:"top,omitempty"` // the period of the first result, if any
}

// ModeResult is how one mode did.
type ModeResult struct {
	Mode    string  `json:"mode"`
	Metrics Metrics `json:"metrics"`
	Ranks   []int   `json:"ranks"` // per question, 0 for not answered
	Misses  []Miss  `json:"misses,omitempty"`
	Err     string  `json:"error,omitempty"` // the mode failed; no metrics
}

// Report is the outcome of a run: one result per mode.
type Report struct {
	Limit int          `json:"limit"`
	Modes []ModeResult `json:"modes"`
}

// Run asks every question in every mode, limit results each, and measures
// each request's latency. Each mode first answers the first question once
// unmeasured, so that opening an index is not counted as a recall. A mode
// whose requests fail is reported with its error, and the other modes still
// run.
func Run(ctx context.Context, rc Recaller, qs []Question, modes []string, limit int) (Report, error) {
	rep := Report{Limit: limit}
	for _, mode := range modes {
		mr := ModeResult{Mode: mode, Ranks: make([]int, len(qs))}
		if len(qs) > 0 {
			rc.Recall(ctx, daybook.RecallRequest{Query: qs[0].Q, Limit: limit, Mode: mode}) // warm-up; an error shows below
		}
		lat := make([]time.Duration, len(qs))
		for i, q := range qs {
			if err := ctx.Err(); err != nil {
				return rep, err
			}
			start := time.Now()
			resp, err := rc.Recall(ctx, daybook.RecallRequest{Query: q.Q, Limit: limit, Mode: mode})
			lat[i] = time.Since(start)
			if err != nil {
				mr.Err = fmt.Sprintf("question on line %d: %v", q.line, err)
				break
			}
			mr.Ranks[i] = q.DayRank(resp.Results)
			if mr.Ranks[i] == 0 {
				miss := Miss{Line: q.line, Q: q.Q}
				if len(resp.Results) > 0 {
					miss.Top = resp.Results[0].Period
				}
				mr.Misses = append(mr.Misses, miss)
			}
		}
		if mr.Err == "" {
			mr.Metrics = Summarize(mr.Ranks, lat)
		} else {
			mr.Ranks, mr.Misses = nil, nil
		}
		rep.Modes = append(rep.Modes, mr)
	}
	return rep, nil
}

// ParseModes splits a comma-separated list of modes and checks each name.
func ParseModes(s string) ([]string, error) {
	var out []string
	for _, m := range strings.Split(s, ",") {
		m = strings.TrimSpace(m)
		if m == "" {
			continue
		}
		known := false
		for _, k := range Modes() {
			known = known || k == m
		}
		if !known {
			return nil, fmt.Errorf("unknown mode %q: want some of %s", m, strings.Join(Modes(), ","))
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no modes given: want some of %s", strings.Join(Modes(), ","))
	}
	return out, nil
}

// WriteTable prints the report as one table, a row per mode.
func (r Report) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "mode\tquestions\thit@1\thit@5\thit@10\tMRR\tp50\tp99\t\n")
	for _, m := range r.Modes {
		if m.Err != "" {
			fmt.Fprintf(tw, "%s\terror: %s\t\n", m.Mode, m.Err)
			continue
		}
		x := m.Metrics
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%s\t%s\t\n", m.Mode, x.Questions, x.Hit1, x.Hit5, x.Hit10, x.MRR, round(x.P50), round(x.P99))
	}
	return tw.Flush()
}

func round(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	default:
		return d.Round(time.Microsecond)
	}
}
