package eval

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/adapters/importer"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/config"
)

// The summary eval: LoCoMo-format sets list, beside each session, the
// events it tells of as short sentences written by people ("Kevin is going
// to the waterpark with his family"). A summary that keeps what happened
// shares their words. Each conversation is imported and consolidated as
// for the dialogue eval; then every day, month and year summary that has
// events is compared with them: ROUGE-1 (Rouge1) of the summary's body
// against its period's events, beside the first words of the period's
// entries cut to the same length, and the share of the events the summary
// still mentions (Mentions). A session's events belong to the day it
// starts on.

// SummaryLevel is what the summary eval measured at one level.
type SummaryLevel struct {
	Level     date.Level
	Summaries int     // summaries with events compared
	Words     float64 // mean words of a summary's body
	Summary   Overlap // means over the summaries
	First     Overlap // the first words of the same periods, at the same lengths
	Events    int     // the events of those periods
	Mentioned int     // of them, those the summary mentions
	FirstMent int     // those the first words mention
	Sentences int     // sentences of the summaries' prose
	Invented  int     // of them, those none of the period's day files holds (Held)
}

// SummaryReport is the summary eval's result.
type SummaryReport struct {
	Summarizer string          // as the summaries' front matter names it
	Levels     []*SummaryLevel // day, month, year
	Missing    []string        // periods with events and no summary
	// People of the summaries that are no speaker of their conversation,
	// with how many summaries list them; People counts every name listed.
	NotSpeakers map[string]int
	People      int
	// InventedSentences are the sentences no day file of their period
	// holds, each after its conversation and period.
	InventedSentences []string
}

// SummaryOptions configure Summaries.
type SummaryOptions struct {
	// Config is the config of every data dir (its zone is set to UTC):
	// config.Default() when nil. With ollama.enabled its model writes the
	// prose.
	Config *config.Config
}

// Summaries runs the summary eval over LoCoMo-format files: each
// conversation is built into its own data dir under tmp.
func Summaries(ctx context.Context, files []string, tmp string, opts SummaryOptions, progress func(name string, days int)) (*SummaryReport, error) {
	cfg := config.Default()
	if opts.Config != nil {
		cfg = *opts.Config
	}
	rep := &SummaryReport{NotSpeakers: map[string]int{}}
	for _, l := range []date.Level{date.LevelDay, date.LevelMonth, date.LevelYear} {
		rep.Levels = append(rep.Levels, &SummaryLevel{Level: l})
	}
	err := eachConversation(files, tmp, func(dir, path string, c importer.Conversation) error {
		a, err := importDialogue(ctx, dir, path, c, cfg)
		return useApp(a, err, c.ID, progress, func(a *app.App) (int, error) { return rep.add(a.Dir(), c) })
	})
	if err != nil {
		return nil, err
	}
	for _, l := range rep.Levels {
		if l.Summaries > 0 {
			k := float64(l.Summaries)
			l.Words /= k
			l.Summary = Overlap{l.Summary.Recall / k, l.Summary.Precision / k, l.Summary.F1 / k}
			l.First = Overlap{l.First.Recall / k, l.First.Precision / k, l.First.F1 / k}
		}
	}
	return rep, nil
}

// add measures the summaries of conversation c, built in the data dir
// root, and returns how many days have events.
func (rep *SummaryReport) add(root string, c importer.Conversation) (int, error) {
	events := map[consolidate.Period][]string{}
	for _, s := range c.Sessions {
		at := s.At
		if at.IsZero() && len(s.Messages) > 0 {
			at = s.Messages[0].At
		}
		if at.IsZero() || len(s.Events) == 0 {
			continue
		}
		d := consolidate.DayPeriod(date.Of(at))
		for _, p := range []consolidate.Period{d, d.Parent(), d.Parent().Parent()} {
			for _, e := range s.Events {
				events[p] = append(events[p], e.Text)
			}
		}
	}
	speakers := map[string]bool{}
	for _, s := range c.Speakers {
		speakers[strings.ToLower(s)] = true
	}
	periods := make([]consolidate.Period, 0, len(events))
	for p := range events {
		periods = append(periods, p)
	}
	slices.SortFunc(periods, func(a, b consolidate.Period) int { return cmp.Compare(a.ID(), b.ID()) })
	days := 0
	for _, p := range periods {
		lv := rep.level(p.Level)
		s, err := consolidate.ReadSummary(p.Path(root))
		if err != nil {
			rep.Missing = append(rep.Missing, c.ID+" "+p.ID())
			continue
		}
		if p.Level == date.LevelDay {
			days++
		}
		body := summaryBody(s)
		n := len(strings.Fields(body))
		texts, err := periodTexts(root, p)
		if err != nil {
			return days, err
		}
		text := strings.Join(texts, "\n")
		sents, invented := Invented(s.Prose, texts)
		lv.Sentences += sents
		lv.Invented += len(invented)
		for _, x := range invented {
			rep.InventedSentences = append(rep.InventedSentences, c.ID+" "+p.ID()+": "+x)
		}
		first := FirstWords(text, n)
		ref := strings.Join(events[p], "\n")
		lv.Summaries++
		lv.Words += float64(n)
		lv.Summary = addOverlap(lv.Summary, Rouge1(body, ref))
		lv.First = addOverlap(lv.First, Rouge1(first, ref))
		for _, e := range events[p] {
			lv.Events++
			if Mentions(body, e, speakers) {
				lv.Mentioned++
			}
			if Mentions(first, e, speakers) {
				lv.FirstMent++
			}
		}
		if rep.Summarizer == "" {
			rep.Summarizer = s.Summarizer
		}
		for _, who := range s.People {
			rep.People++
			if !speakers[strings.ToLower(who.Name)] {
				rep.NotSpeakers[who.Name]++
			}
		}
	}
	return days, nil
}

func (rep *SummaryReport) level(l date.Level) *SummaryLevel {
	for _, x := range rep.Levels {
		if x.Level == l {
			return x
		}
	}
	panic("eval: no summary level " + string(l))
}

func addOverlap(a, b Overlap) Overlap {
	return Overlap{a.Recall + b.Recall, a.Precision + b.Precision, a.F1 + b.F1}
}

// summaryBody is what a summary says of its period: its prose and its
// decisions' text; the title, tags, people, keywords, busiest days and
// stats are left out.
func summaryBody(s *consolidate.Summary) string {
	parts := []string{s.Prose}
	for _, d := range s.Decisions {
		parts = append(parts, d.Text)
	}
	return strings.TrimSpace(strings.Join(parts, "\n"))
}

// periodTexts returns the texts of the entries of period p in the data dir
// root, oldest first.
func periodTexts(root string, p consolidate.Period) ([]string, error) {
	files, err := dayfiles.List(root, p.Range(), slog.New(slog.DiscardHandler))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range files {
		day, err := dayfiles.ParseFile(f.Path, f.Date)
		if err != nil {
			return nil, err
		}
		for _, e := range day.Entries {
			out = append(out, e.Text)
		}
	}
	return out, nil
}

// WriteTable prints the report: a row per level, the summaries beside the
// first words, then the names listed as people that no conversation has as
// a speaker.
func (rep *SummaryReport) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "summaries by %s against the events (ROUGE-1, stop words out; first: the period's first words, as many;\n"+
		"invented: sentences of the prose in none of the period's entries)\n", rep.Summarizer)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "level\tsummaries\twords\trecall\tfirst\tprecision\tfirst\tF1\tfirst\tevents\tmentioned\tfirst\tsentences\tinvented\t")
	for _, l := range rep.Levels {
		fmt.Fprintf(tw, "%s\t%d\t%.0f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%d\t%.1f%%\t%.1f%%\t%d\t%d\t\n", l.Level, l.Summaries, l.Words,
			l.Summary.Recall, l.First.Recall, l.Summary.Precision, l.First.Precision, l.Summary.F1, l.First.F1,
			l.Events, pct(l.Mentioned, l.Events), pct(l.FirstMent, l.Events), l.Sentences, l.Invented)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	total := 0
	for _, n := range rep.NotSpeakers {
		total += n
	}
	fmt.Fprintf(w, "people: %d names listed, %d of them no speaker (%d distinct)\n", rep.People, total, len(rep.NotSpeakers))
	if len(rep.Missing) > 0 {
		fmt.Fprintf(w, "no summary for %d periods with events: %s\n", len(rep.Missing), strings.Join(rep.Missing, ", "))
	}
	return nil
}

// WriteInvented lists the sentences of the summaries that none of their
// period's entries holds.
func (rep *SummaryReport) WriteInvented(w io.Writer) {
	for _, s := range rep.InventedSentences {
		fmt.Fprintf(w, "invented: %s\n", s)
	}
}

// WriteNotSpeakers lists the names the summaries give as people that are no
// speaker of their conversation, most listed first: friends named in the
// talk, and whatever else the people heuristic took for a name.
func (rep *SummaryReport) WriteNotSpeakers(w io.Writer) {
	names := make([]string, 0, len(rep.NotSpeakers))
	for n := range rep.NotSpeakers {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(rep.NotSpeakers[b], rep.NotSpeakers[a]), strings.Compare(a, b))
	})
	for _, n := range names {
		fmt.Fprintf(w, "not a speaker, listed in %d summaries: %s\n", rep.NotSpeakers[n], n)
	}
}

func pct(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return 100 * float64(n) / float64(of)
}
