package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"text/tabwriter"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// UpdateQuestion is one line of an updates file (daybook gen --updates
// writes one; internal/tooling/eval/testdata/updates holds a hand-written
// one): a question about a fact that changed, its current value, the
// values it had before, and the entry that states the current value (its
// day and its text, tags left out).
//
//	{"q": "what is the garage door code?", "current": "5521", "old": ["4417"],
//	 "day": "2026-06-14", "text": "Changed the garage door code to 5521."}
type UpdateQuestion struct {
	Q       string   `json:"q"`
	Current string   `json:"current"`
	Old     []string `json:"old"`
	Day     string   `json:"day"`
	Text    string   `json:"text"`
	Changes int      `json:"changes,omitempty"`
	Echo    bool     `json:"echo,omitempty"` // a captured agent turn restated an old value
	line    int
}

// ReadUpdates reads an updates file, one JSON object a line; an error
// names the file, the line and what is missing.
func ReadUpdates(r io.Reader, name string) ([]UpdateQuestion, error) {
	var out []UpdateQuestion
	err := eachLine(r, name, func(n int, line []byte) error {
		var q UpdateQuestion
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&q); err != nil {
			return err
		}
		switch {
		case strings.TrimSpace(q.Q) == "":
			return errors.New("no q")
		case q.Current == "" || len(q.Old) == 0:
			return errors.New("want current and at least one old value")
		case q.Text == "":
			return errors.New("no text of the current statement")
		}
		if _, err := date.Parse(q.Day); err != nil {
			return fmt.Errorf("day: %w", err)
		}
		q.line = n
		out = append(out, q)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// UpdateAsker is what the updates eval asks: the App, or a client of the
// daemon.
type UpdateAsker interface {
	Recall(ctx context.Context, req daybook.RecallRequest) (daybook.RecallResponse, error)
	Context(ctx context.Context, req daybook.ContextRequest) (daybook.ContextResponse, error)
}

// UpdateBudgets are the context budgets the updates eval reads blocks at.
var UpdateBudgets = []int{400, 1000}

// UpdateLimit is how many results recall returns for the updates eval.
const UpdateLimit = 10

// UpdateResult is how one question did.
type UpdateResult struct {
	Q    string `json:"q"`
	Line int    `json:"line"`
	Echo bool   `json:"echo,omitempty"`
	// Rank of the current statement in recall's results, 1-based; 0 when
	// not among them.
	Rank int `json:"rank"`
	// Per budget: the first line of the block that names a value names
	// the current one (Leads); every line that names an old value and not
	// the current one is marked superseded (Marked); the current value is
	// in the block (Current).
	Leads, Marked, Current []bool
	// First is the first line that names a value, per budget, for a miss.
	First []string `json:"first,omitempty"`
}

// OK reports whether the block at budget index b hands over the change:
// it leads with the current value, or holds it and marks every older one
// superseded.
func (r UpdateResult) OK(b int) bool { return r.Leads[b] || r.Current[b] && r.Marked[b] }

// UpdateReport is the outcome of the updates eval.
type UpdateReport struct {
	Budgets []int          `json:"budgets"`
	Results []UpdateResult `json:"results"`
}

// Updates asks every question: recall (limit UpdateLimit) for the rank of
// the entry that states the current value, found in its day file under dir
// by its text, and the context block at each budget.
func Updates(ctx context.Context, a UpdateAsker, dir string, qs []UpdateQuestion, budgets []int) (UpdateReport, error) {
	rep := UpdateReport{Budgets: budgets}
	for _, q := range qs {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		id, err := statementID(dir, q)
		if err != nil {
			return rep, err
		}
		res := UpdateResult{Q: q.Q, Line: q.line, Echo: q.Echo}
		rr, err := a.Recall(ctx, daybook.RecallRequest{Query: q.Q, Limit: UpdateLimit})
		if err != nil {
			return rep, fmt.Errorf("recall of line %d: %w", q.line, err)
		}
		for i, r := range rr.Results {
			if r.ID == id {
				res.Rank = i + 1
				break
			}
		}
		for _, b := range budgets {
			cr, err := a.Context(ctx, daybook.ContextRequest{Query: q.Q, Budget: b})
			if err != nil {
				return rep, fmt.Errorf("context of line %d: %w", q.line, err)
			}
			leads, marked, current, first := judgeBlock(cr.Markdown, q)
			res.Leads = append(res.Leads, leads)
			res.Marked = append(res.Marked, marked)
			res.Current = append(res.Current, current)
			res.First = append(res.First, first)
		}
		rep.Results = append(rep.Results, res)
	}
	return rep, nil
}

// statementID finds the id of the entry of q.Day whose text, tags left
// out, is q.Text.
func statementID(dir string, q UpdateQuestion) (string, error) {
	d := date.MustParse(q.Day)
	day, err := dayfiles.ParseFile(dayfiles.Path(dir, d), d)
	if err != nil {
		return "", fmt.Errorf("line %d: %w", q.line, err)
	}
	for _, e := range day.Entries {
		if withoutTags(e.Text) == q.Text {
			return e.ID, nil
		}
	}
	return "", fmt.Errorf("line %d: no entry of %s says %q", q.line, q.Day, q.Text)
}

var tagWord = regexp.MustCompile(`\s+#[\p{L}\p{N}_/-]+`)

func withoutTags(t string) string { return strings.TrimSpace(tagWord.ReplaceAllString(t, "")) }

// judgeBlock reads a block as an agent would, top down: the first line
// that names the current value or an old one (the title's query left
// out), whether it names the current one, and whether every line naming
// an old value and not the current one says it was superseded.
func judgeBlock(block string, q UpdateQuestion) (leads, marked, current bool, first string) {
	cur := valueRe(q.Current)
	var old []*regexp.Regexp
	for _, o := range q.Old {
		old = append(old, valueRe(o))
	}
	marked = true
	for _, l := range strings.Split(block, "\n") {
		if strings.HasPrefix(l, "Query: ") {
			continue
		}
		hasCur := cur.MatchString(l)
		hasOld := false
		for _, o := range old {
			hasOld = hasOld || o.MatchString(l)
		}
		if !hasCur && !hasOld {
			continue
		}
		if first == "" {
			first, leads = l, hasCur
		}
		current = current || hasCur
		if hasOld && !hasCur && !strings.Contains(l, "(superseded by [") {
			marked = false
		}
	}
	return leads, marked, current, first
}

// valueRe finds a value as a phrase of its own, whatever the case.
func valueRe(v string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)(^|[^\p{L}\p{N}])` + regexp.QuoteMeta(v) + `($|[^\p{L}\p{N}])`)
}

// WriteTable prints the shares: recall's hit@1 and MRR of the current
// statement, and per budget the share of blocks that lead with the
// current value and that hand the change over (lead, or mark every older
// value superseded), over all questions and over those with an echo.
func (rep UpdateReport) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "updates\tquestions\thit@1\tMRR")
	for _, b := range rep.Budgets {
		fmt.Fprintf(tw, "\tleads %d\tok %d", b, b)
	}
	fmt.Fprintln(tw, "\t")
	row := func(name string, keep func(UpdateResult) bool) {
		n, hit1, rr := 0, 0, 0.0
		leads := make([]int, len(rep.Budgets))
		ok := make([]int, len(rep.Budgets))
		for _, r := range rep.Results {
			if !keep(r) {
				continue
			}
			n++
			if r.Rank == 1 {
				hit1++
			}
			if r.Rank > 0 {
				rr += 1 / float64(r.Rank)
			}
			for b := range rep.Budgets {
				if r.Leads[b] {
					leads[b]++
				}
				if r.OK(b) {
					ok[b]++
				}
			}
		}
		if n == 0 {
			return
		}
		pct := func(k int) string { return fmt.Sprintf("%.1f", 100*float64(k)/float64(n)) }
		fmt.Fprintf(tw, "%s\t%d\t%s\t%.3f", name, n, pct(hit1), rr/float64(n))
		for b := range rep.Budgets {
			fmt.Fprintf(tw, "\t%s\t%s", pct(leads[b]), pct(ok[b]))
		}
		fmt.Fprintln(tw, "\t")
	}
	row("all", func(UpdateResult) bool { return true })
	row("with an echo", func(r UpdateResult) bool { return r.Echo })
	row("without", func(r UpdateResult) bool { return !r.Echo })
	return tw.Flush()
}

// WriteMisses lists the questions whose current statement was not first
// in recall or whose block did not hand the change over.
func (rep UpdateReport) WriteMisses(w io.Writer, name string) {
	for _, r := range rep.Results {
		for b, budget := range rep.Budgets {
			if !r.OK(b) {
				fmt.Fprintf(w, "block %d missed %s:%d: %s (first: %s)\n", budget, name, r.Line, r.Q, orNone(r.First[b]))
			}
		}
		if r.Rank != 1 {
			fmt.Fprintf(w, "recall ranked %s:%d at %d: %s\n", name, r.Line, r.Rank, r.Q)
		}
	}
}

func orNone(s string) string {
	if s == "" {
		return "no value named"
	}
	return s
}
