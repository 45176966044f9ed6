package eval

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
)

// Asker is one way of answering a question: a recall mode, a level, the
// drill with a level switched off, or the baseline.
type Asker struct {
	Name string
	Ask  func(ctx context.Context, q string, limit int) ([]daybook.RecallResult, error)
}

// RecallAsker asks rc with the request req gives, the query and limit set.
func RecallAsker(name string, rc Recaller, req daybook.RecallRequest) Asker {
	return Asker{Name: name, Ask: func(ctx context.Context, q string, limit int) ([]daybook.RecallResult, error) {
		r := req
		r.Query, r.Limit = q, limit
		resp, err := rc.Recall(ctx, r)
		return resp.Results, err
	}}
}

// BaselineAsker asks the flat BM25 over whole days of b.
func BaselineAsker(b *DayBM25) Asker {
	return Asker{Name: "baseline: BM25 over days", Ask: func(_ context.Context, q string, limit int) ([]daybook.RecallResult, error) {
		return b.Rank(q, limit), nil
	}}
}

// NewQuestion makes a question from its text, its gold days and a category
// (0 for none).
func NewQuestion(q string, days []date.Date, category int) Question {
	x := Question{Q: q, Category: category, gold: map[date.Date]bool{}}
	for _, d := range days {
		x.gold[d] = true
		x.Days = append(x.Days, d.String())
	}
	return x
}

// Tally gathers the ranks and latencies of each asker over questions asked
// in several rounds (one conversation after another), by category.
type Tally struct {
	Names []string
	ranks map[string]map[int][]int
	lat   map[string]map[int][]time.Duration
	asked map[string]map[int][]Question // in the order of ranks
}

// NewTally returns an empty tally.
func NewTally() *Tally {
	return &Tally{ranks: map[string]map[int][]int{}, lat: map[string]map[int][]time.Duration{}, asked: map[string]map[int][]Question{}}
}

// Ask puts every question to every asker and records the day ranks.
func (t *Tally) Ask(ctx context.Context, askers []Asker, qs []Question, limit int) error {
	for _, a := range askers {
		if !slices.Contains(t.Names, a.Name) {
			t.Names = append(t.Names, a.Name)
			t.ranks[a.Name] = map[int][]int{}
			t.lat[a.Name] = map[int][]time.Duration{}
			t.asked[a.Name] = map[int][]Question{}
		}
		for _, q := range qs {
			if err := ctx.Err(); err != nil {
				return err
			}
			start := time.Now()
			res, err := a.Ask(ctx, q.Q, limit)
			d := time.Since(start)
			if err != nil {
				return fmt.Errorf("%s: %q: %w", a.Name, q.Q, err)
			}
			t.ranks[a.Name][q.Category] = append(t.ranks[a.Name][q.Category], q.DayRank(res))
			t.lat[a.Name][q.Category] = append(t.lat[a.Name][q.Category], d)
			t.asked[a.Name][q.Category] = append(t.asked[a.Name][q.Category], q)
		}
	}
	return nil
}

// Categories returns the categories asked, in order.
func (t *Tally) Categories() []int { return categories(t.ranks) }

// categories returns the categories that any row of byRow holds, in order.
func categories[V any](byRow map[string]map[int]V) []int {
	var cs []int
	for _, byCat := range byRow {
		for c := range byCat {
			if !slices.Contains(cs, c) {
				cs = append(cs, c)
			}
		}
	}
	slices.Sort(cs)
	return cs
}

// Metrics sums up an asker over the categories given, all when none.
func (t *Tally) Metrics(name string, cats ...int) Metrics {
	var rs []int
	var ls []time.Duration
	for c, r := range t.ranks[name] {
		if len(cats) == 0 || slices.Contains(cats, c) {
			rs = append(rs, r...)
			ls = append(ls, t.lat[name][c]...)
		}
	}
	return Summarize(rs, ls)
}

// WriteTable prints a row per asker: the metrics over every question, then
// hit@1 and MRR per category.
func (t *Tally) WriteTable(w io.Writer, catNames map[int]string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	cats := t.Categories()
	fmt.Fprintf(tw, "recall\tquestions\thit@1\thit@5\thit@10\tMRR@10\tp50\tp99\t")
	for _, c := range cats {
		if len(cats) > 1 {
			fmt.Fprintf(tw, "%s h@1\t%s MRR\t", catName(catNames, c), catName(catNames, c))
		}
	}
	fmt.Fprintln(tw)
	for _, n := range t.Names {
		x := t.Metrics(n)
		fmt.Fprintf(tw, "%s\t%d\t%.1f\t%.1f\t%.1f\t%.3f\t%s\t%s\t", n, x.Questions, 100*x.Hit1, 100*x.Hit5, 100*x.Hit10, x.MRR, round(x.P50), round(x.P99))
		for _, c := range cats {
			if len(cats) > 1 {
				y := t.Metrics(n, c)
				fmt.Fprintf(tw, "%.1f\t%.3f\t", 100*y.Hit1, y.MRR)
			}
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

func catName(names map[int]string, c int) string {
	if n, ok := names[c]; ok {
		return n
	}
	return fmt.Sprintf("cat%d", c)
}

// Worse lists the questions asker a ranked below asker b (a rank of 0,
// none found, is the worst), with both ranks.
func (t *Tally) Worse(a, b string) []string {
	var out []string
	for _, c := range t.Categories() {
		ra, rb, qs := t.ranks[a][c], t.ranks[b][c], t.asked[a][c]
		for i := range min(len(ra), len(rb), len(qs)) {
			if worse(ra[i], rb[i]) {
				out = append(out, fmt.Sprintf("%s %d, %s %d: %s (gold %s)", a, ra[i], b, rb[i], qs[i].Q, strings.Join(qs[i].Days, " ")))
			}
		}
	}
	return out
}

func worse(x, y int) bool { return y > 0 && (x == 0 || x > y) }
