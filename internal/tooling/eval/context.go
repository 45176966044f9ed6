package eval

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/adapters/importer"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/recall"
)

// ContextBudgets are the budgets (tokens) the context eval builds blocks at.
var ContextBudgets = []int{1000, 2000, 4000}

// ContextTopK are the numbers of best entries of plain recall the context
// eval sets beside the blocks.
var ContextTopK = []int{5, 10, 20}

// KeyChars is how much of an evidence message must be in a block for it to
// count: its first KeyChars characters, normalised to words (see Words).
const KeyChars = 80

// Words normalises text for matching: its runs of letters and digits,
// lower-cased, joined by single spaces.
func Words(s string) string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	return strings.Join(f, " ")
}

// MessageKey returns what of a message a block must hold: the first
// KeyChars characters of its words (see Words); "" when it has no words.
func MessageKey(text string) string {
	w := []rune(Words(text))
	if len(w) > KeyChars {
		w = w[:KeyChars]
	}
	return strings.TrimSpace(string(w))
}

// ContextQuestion is a question with the keys of its evidence messages.
type ContextQuestion struct {
	Q        string
	Category int
	Keys     []string // MessageKey of each evidence message, distinct
}

// Found counts how many of q's keys the normalised text (see Words) holds,
// each starting at a word.
func (q ContextQuestion) Found(words string) int {
	hay := " " + words + " "
	n := 0
	for _, k := range q.Keys {
		if strings.Contains(hay, " "+k) {
			n++
		}
	}
	return n
}

// ContextQuestions returns the questions of c that have evidence messages
// with words, each with their keys.
func ContextQuestions(c importer.Conversation) []ContextQuestion {
	text := map[string]string{}
	for _, s := range c.Sessions {
		for _, m := range s.Messages {
			if !m.At.IsZero() {
				text[m.DiaID] = m.Text
			}
		}
	}
	var out []ContextQuestion
	for _, x := range c.QA {
		if strings.TrimSpace(x.Question) == "" {
			continue
		}
		q := ContextQuestion{Q: x.Question, Category: x.Category}
		for _, id := range x.Evidence {
			t, ok := text[id]
			if !ok {
				continue
			}
			if k := MessageKey(t); k != "" && !slices.Contains(q.Keys, k) {
				q.Keys = append(q.Keys, k)
			}
		}
		if len(q.Keys) > 0 {
			out = append(out, q)
		}
	}
	return out
}

// ContextShares is how often the evidence was handed over by one way of
// building a block.
type ContextShares struct {
	Questions int `json:"questions"`
	Any       int `json:"any"`   // questions with at least one evidence message in the block
	Every     int `json:"every"` // questions with every evidence message in the block
	Tokens    int `json:"tokens"`
}

func (s *ContextShares) add(q ContextQuestion, block string, tokens int) {
	n := q.Found(Words(block))
	s.Questions++
	s.Tokens += tokens
	if n > 0 {
		s.Any++
	}
	if n == len(q.Keys) {
		s.Every++
	}
}

func (s *ContextShares) plus(o ContextShares) {
	s.Questions += o.Questions
	s.Any += o.Any
	s.Every += o.Every
	s.Tokens += o.Tokens
}

// ContextTally gathers the shares of each row (a budget of the context, or
// the top k entries of recall) by question category.
type ContextTally struct {
	Rows   []string
	shares map[string]map[int]*ContextShares
	lat    []time.Duration // of every context built
	// Misses, when set, is given every block that holds none of its
	// question's evidence messages.
	Misses func(ContextMiss) error
}

// ContextMiss is a block that holds none of its question's evidence
// messages, with the entries that hold them: what "eval --dialogue PATH
// --context --context-misses FILE" writes, one JSON object a line.
type ContextMiss struct {
	Conversation string          `json:"conversation"`
	Budget       int             `json:"budget"`
	Question     string          `json:"question"`
	Category     int             `json:"category"`
	Evidence     []EvidenceEntry `json:"evidence"`
	Block        string          `json:"block"`
}

// EvidenceEntry is an entry of the day files that holds an evidence
// message.
type EvidenceEntry struct {
	ID   string `json:"id"`
	Day  string `json:"day"`
	Line int    `json:"line"`
	// DayInBlock: the block has evidence of the entry's day (its heading).
	DayInBlock bool   `json:"day_in_block"`
	Text       string `json:"text"`
}

// NewContextTally returns an empty tally.
func NewContextTally() *ContextTally {
	return &ContextTally{shares: map[string]map[int]*ContextShares{}}
}

func (t *ContextTally) record(row string, q ContextQuestion, block string, tokens int) {
	if _, ok := t.shares[row]; !ok {
		t.Rows = append(t.Rows, row)
		t.shares[row] = map[int]*ContextShares{}
	}
	s := t.shares[row][q.Category]
	if s == nil {
		s = &ContextShares{}
		t.shares[row][q.Category] = s
	}
	s.add(q, block, tokens)
}

// ContextRow names the row of a context block at budget tokens.
func ContextRow(budget int) string { return fmt.Sprintf("context %d", budget) }

// RecallRow names the row of the k best entries of recall.
func RecallRow(k int) string { return fmt.Sprintf("recall --level entry, top %d", k) }

// Ask builds, for every question, the context block at each budget as
// "daybook context --budget B -- QUESTION" does (App.Context), and the
// text of the best max(topK) entries of "recall --level entry" (not
// counted as uses), and records which evidence messages each holds; a
// block that holds none goes to Misses, named conv.
func (t *ContextTally) Ask(ctx context.Context, a *app.App, conv string, qs []ContextQuestion, budgets, topK []int) error {
	all, err := allEntries(a)
	if err != nil {
		return err
	}
	entries := map[string]string{}
	for _, e := range all {
		entries[e.ID] = e.Text
	}
	x, err := a.Index(ctx)
	if err != nil {
		return err
	}
	opts := recall.Options{Root: a.Dir(), Now: a.Now, Loc: a.Loc(), Limit: a.Config().Recall.Limit}
	maxK := 0
	if len(topK) > 0 {
		maxK = slices.Max(topK)
	}
	for _, q := range qs {
		for _, b := range budgets {
			start := time.Now()
			resp, err := a.Context(ctx, daybook.ContextRequest{Query: q.Q, Budget: b})
			if err != nil {
				return fmt.Errorf("context %d: %q: %w", b, q.Q, err)
			}
			t.lat = append(t.lat, time.Since(start))
			t.record(ContextRow(b), q, resp.Markdown, resp.Tokens)
			if t.Misses != nil && q.Found(Words(resp.Markdown)) == 0 {
				m := ContextMiss{Conversation: conv, Budget: b, Question: q.Q, Category: q.Category,
					Evidence: q.entries(all, resp.Markdown), Block: resp.Markdown}
				if err := t.Misses(m); err != nil {
					return err
				}
			}
		}
		if maxK == 0 {
			continue
		}
		rr, err := recall.Recall(ctx, x, daybook.RecallRequest{Query: q.Q, Level: string(date.LevelEntry), Limit: maxK}, opts)
		if err != nil {
			return fmt.Errorf("recall: %q: %w", q.Q, err)
		}
		for _, k := range topK {
			var b strings.Builder
			for _, r := range rr.Results[:min(k, len(rr.Results))] {
				b.WriteString(entries[r.ID])
				b.WriteString("\n")
			}
			t.record(RecallRow(k), q, b.String(), (len(b.String())+3)/4)
		}
	}
	return nil
}

// allEntries returns every entry of a's day files, in order.
func allEntries(a *app.App) ([]dayfiles.Entry, error) {
	files, err := dayfiles.List(a.Dir(), date.Range{}, a.Logger())
	if err != nil {
		return nil, err
	}
	var out []dayfiles.Entry
	for _, f := range files {
		day, err := dayfiles.ParseFile(f.Path, f.Date)
		if err != nil {
			return nil, err
		}
		out = append(out, day.Entries...)
	}
	return out, nil
}

// entries returns the entries of all that hold one of q's evidence
// messages (its key from the start of a word), each saying whether block
// shows evidence of its day.
func (q ContextQuestion) entries(all []dayfiles.Entry, block string) []EvidenceEntry {
	var out []EvidenceEntry
	for _, e := range all {
		if (ContextQuestion{Keys: q.Keys}).Found(Words(e.Text)) == 0 {
			continue
		}
		out = append(out, EvidenceEntry{ID: e.ID, Day: e.Day.String(), Line: e.Line, Text: e.Text,
			DayInBlock: strings.Contains(block, "\n### "+e.Day.String()+" ")})
	}
	return out
}

// Shares sums a row up over the categories given, all when none.
func (t *ContextTally) Shares(row string, cats ...int) ContextShares {
	var s ContextShares
	for c, x := range t.shares[row] {
		if len(cats) == 0 || slices.Contains(cats, c) {
			s.plus(*x)
		}
	}
	return s
}

// Categories returns the categories asked, in order.
func (t *ContextTally) Categories() []int { return categories(t.shares) }

// WriteTable prints a row per budget and per top k: the questions, the
// shares with at least one and with every evidence message in the block
// (%), the mean tokens of the block, then the two shares per category; and
// the latency of building a context.
func (t *ContextTally) WriteTable(w io.Writer, catNames map[int]string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	cats := t.Categories()
	fmt.Fprintf(tw, "block\tquestions\tany %%\tevery %%\tmean tokens\t")
	for _, c := range cats {
		if len(cats) > 1 {
			fmt.Fprintf(tw, "%s any\t%s every\t", catName(catNames, c), catName(catNames, c))
		}
	}
	fmt.Fprintln(tw)
	for _, r := range t.Rows {
		s := t.Shares(r)
		fmt.Fprintf(tw, "%s\t%d\t%.1f\t%.1f\t%d\t", r, s.Questions, pct(s.Any, s.Questions), pct(s.Every, s.Questions), s.Tokens/max(s.Questions, 1))
		for _, c := range cats {
			if len(cats) > 1 {
				y := t.Shares(r, c)
				fmt.Fprintf(tw, "%.1f\t%.1f\t", pct(y.Any, y.Questions), pct(y.Every, y.Questions))
			}
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "context latency p50 %s, p99 %s over %d blocks\n", round(Percentile(t.lat, 50)), round(Percentile(t.lat, 99)), len(t.lat))
	return err
}

// DialogueContext runs the context eval over LoCoMo-format files: each
// conversation built into its own data dir under tmp as for Dialogue (its
// days first moved spread days apart when spread > 0), then every question
// with evidence asked for a context at each budget and of recall's top k
// entries. misses, when not nil, is given every block that holds none of
// its question's evidence messages (ContextTally.Misses).
func DialogueContext(ctx context.Context, files []string, tmp string, spread int, budgets, topK []int, misses func(ContextMiss) error, progress func(name string, questions int)) (*ContextTally, error) {
	t := NewContextTally()
	t.Misses = misses
	err := eachConversation(files, tmp, func(dir, path string, c importer.Conversation) error {
		c = Spread(c, spread)
		a, _, err := BuildDialogue(ctx, dir, path, c)
		return useApp(a, err, c.ID, progress, func(a *app.App) (int, error) {
			qs := ContextQuestions(c)
			return len(qs), t.Ask(ctx, a, c.ID, qs, budgets, topK)
		})
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}
