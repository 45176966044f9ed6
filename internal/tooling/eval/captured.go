package eval

import (
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"text/tabwriter"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/adapters/importer"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/tooling/gen"
)

// CapturedFacts is how many facts the captured-traffic eval plants in
// captured sessions of each conversation: questions whose only answer is
// an agent's captured answer.
const CapturedFacts = 5

// CapturedRate is what the captured-traffic eval measured at one rate of
// captured turns a day.
type CapturedRate struct {
	PerDay int `json:"per_day"`
	// The dialogue's own questions: the default recall, and the context
	// shares by budget.
	Recall  Metrics               `json:"recall"`
	Context map[int]ContextShares `json:"context"`
	// The planted questions, answered only in a captured session.
	Planted        Metrics               `json:"planted"`
	PlantedContext map[int]ContextShares `json:"planted_context"`
	Turns          int                   `json:"turns"` // captured entries written, all conversations
}

// CapturedEval runs the captured-traffic eval over LoCoMo-format files:
// for each rate of rates, every conversation is built as for Dialogue with
// that many captured agent turns a day added on each of its days (gen's
// work-journal prose, tagged as Claude Code's hooks tag a capture:
// gen.Captured) and CapturedFacts facts planted as the answers of short
// captured sessions; then its questions are put to the default recall
// (hit@k by day) and to the context at each budget (the evidence shares),
// and so are the planted facts' questions.
func CapturedEval(ctx context.Context, files []string, tmp string, rates, budgets []int, progress func(name string, questions int)) ([]CapturedRate, error) {
	var out []CapturedRate
	for _, rate := range rates {
		t, pt := NewTally(), NewTally()
		ct, pct := NewContextTally(), NewContextTally()
		turns := 0
		err := eachConversation(files, fmt.Sprintf("%s/rate%d", tmp, rate), func(dir, path string, c importer.Conversation) error {
			traffic := gen.Captured(gen.CapturedOptions{Seed: seedOf(c.ID), Days: conversationDays(c), PerDay: rate, Facts: CapturedFacts})
			turns += len(traffic.Lines) - 2*len(traffic.Facts)
			a, qs, err := buildDialogue(ctx, dir, path, c, traffic.Lines)
			return useApp(a, err, fmt.Sprintf("%s, %d captured a day", c.ID, rate), progress, func(a *app.App) (int, error) {
				// The blocks first: a recall counts its results as used,
				// which the block's utility then reads.
				if err := ct.Ask(ctx, a, c.ID, ContextQuestions(c), budgets, nil); err != nil {
					return 0, err
				}
				var pq []Question
				var pc []ContextQuestion
				for _, f := range traffic.Facts {
					d := date.MustParse(f.Days[0])
					pq = append(pq, NewQuestion(f.Q, []date.Date{d}, 0))
					pc = append(pc, ContextQuestion{Q: f.Q, Keys: []string{MessageKey("Assistant: Noted: " + f.Text)}})
				}
				if err := pct.Ask(ctx, a, c.ID, pc, budgets, nil); err != nil {
					return 0, err
				}
				ask := []Asker{RecallAsker("recall (drill)", a, daybook.RecallRequest{})}
				if err := t.Ask(ctx, ask, qs, 10); err != nil {
					return 0, err
				}
				if err := pt.Ask(ctx, ask, pq, 10); err != nil {
					return 0, err
				}
				return len(qs), nil
			})
		})
		if err != nil {
			return nil, err
		}
		r := CapturedRate{PerDay: rate, Recall: t.Metrics("recall (drill)"), Planted: pt.Metrics("recall (drill)"),
			Context: map[int]ContextShares{}, PlantedContext: map[int]ContextShares{}, Turns: turns}
		for _, b := range budgets {
			r.Context[b] = ct.Shares(ContextRow(b))
			r.PlantedContext[b] = pct.Shares(ContextRow(b))
		}
		out = append(out, r)
	}
	return out, nil
}

// conversationDays returns the days c's messages are on, in order.
func conversationDays(c importer.Conversation) []date.Date {
	var days []date.Date
	for _, s := range c.Sessions {
		for _, m := range s.Messages {
			if d := date.Of(m.At); !m.At.IsZero() && !slices.Contains(days, d) {
				days = append(days, d)
			}
		}
	}
	slices.SortFunc(days, date.Date.Compare)
	return days
}

// seedOf is a seed named by s: the same conversation gets the same traffic.
func seedOf(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// WriteCapturedTable prints a row per rate: the dialogue's questions'
// hit@1 and hit@5 and the context's evidence shares (any, every) at each
// budget, then the planted questions' hit@1, hit@5 and their share in the
// context at each budget; all in %.
func WriteCapturedTable(w io.Writer, rates []CapturedRate, budgets []int) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "captured/day\tturns\tquestions\thit@1\thit@5\t")
	for _, b := range budgets {
		fmt.Fprintf(tw, "ctx %d any\tctx %d every\t", b, b)
	}
	fmt.Fprint(tw, "planted\tplanted hit@1\tplanted hit@5\t")
	for _, b := range budgets {
		fmt.Fprintf(tw, "planted ctx %d\t", b)
	}
	fmt.Fprintln(tw)
	for _, r := range rates {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%.1f\t%.1f\t", r.PerDay, r.Turns, r.Recall.Questions, 100*r.Recall.Hit1, 100*r.Recall.Hit5)
		for _, b := range budgets {
			s := r.Context[b]
			fmt.Fprintf(tw, "%.1f\t%.1f\t", pct(s.Any, s.Questions), pct(s.Every, s.Questions))
		}
		fmt.Fprintf(tw, "%d\t%.1f\t%.1f\t", r.Planted.Questions, 100*r.Planted.Hit1, 100*r.Planted.Hit5)
		for _, b := range budgets {
			s := r.PlantedContext[b]
			fmt.Fprintf(tw, "%.1f\t", pct(s.Any, s.Questions))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}
