package assemble

import (
	"context"
	"log/slog"
	"slices"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// GatherInput says where and for what a context's candidates are gathered.
type GatherInput struct {
	Dir    string    // the data dir
	Today  date.Date // in the configured zone
	Ahead  int       // days past Today the date window reaches: day files beyond are not recent
	Budget int       // tokens: the recent part reads entries to twice this
	// Hits are the drill's results for the query, best first; none without
	// a query.
	Hits []daybook.RecallResult
	// Evidence: the query has words of its own (not only a date, or stop
	// words), so its entry hits are evidence (see PartEvidence), each with
	// its neighbouring entries, and the summaries of their days frame them.
	Evidence bool
	// Words finds the query's own words (its temporal phrase taken out) in
	// the entries of the evidence's days: one that holds its rare words is
	// evidence of its own, with its neighbours. nil: only the hits are.
	Words QueryWords
	Log   *slog.Logger
	// Files lists and reads the summaries and day files; nil: Disk, which
	// reads them anew on every call.
	Files Files
}

// Gathered is a context's candidates, read from the data dir.
type Gathered struct {
	Candidates []Candidate
	Covers     []date.Range // the days each candidate stands for
	Files      []dayfiles.File
	Warnings   []string // files left out, and why
}

// Gather collects the candidates of one context, in Build's order: with
// Evidence, the entry hits and their neighbours; the other hits; the
// summaries of the evidence's days; the yearly summaries, this year's and
// the last months' monthly ones and the last days' daily ones; then the
// latest entries. A file that will not read is left out with a warning.
func Gather(ctx context.Context, in GatherInput) (Gathered, error) {
	if in.Log == nil {
		in.Log = slog.New(slog.DiscardHandler)
	}
	if in.Files == nil {
		in.Files = Disk{Dir: in.Dir, Log: in.Log}
	}
	g := &gatherer{in: in, ctx: ctx, days: map[date.Date]*dayfiles.Day{}, seen: map[string]bool{},
		speakers: map[string]bool{}}
	hits, days := in.Hits, []date.Date(nil)
	if in.Evidence {
		hits, days = g.addEvidence(hits)
	}
	g.addHits(hits)
	g.addFrames(days)
	if err := g.addSummaries(); err != nil {
		return g.out, err
	}
	// Day files past the window (days/2999/ made by hand) are not recent.
	files, err := in.Files.Days(date.Range{To: in.Today.AddDays(in.Ahead)})
	if err != nil {
		return g.out, err
	}
	g.out.Files = files
	if ev := g.evidence(); ev == nil || WantsRecent(ev.Date, in.Today) {
		g.addRecent(files, in.Budget)
	}
	g.markStale()
	return g.out, nil
}

// evidence returns the most relevant evidence candidate, the first added;
// nil without evidence.
func (g *gatherer) evidence() *Candidate {
	if len(g.out.Candidates) == 0 || g.out.Candidates[0].Part != PartEvidence {
		return nil
	}
	return &g.out.Candidates[0]
}

// RawTokens estimates the tokens of the day files that the placed items
// stand for: what reading them whole would have cost.
func (g Gathered) RawTokens(placed []Placed) int {
	var covered []date.Range
	for _, p := range placed {
		if p.Index >= 0 {
			covered = append(covered, g.Covers[p.Index])
		}
	}
	slices.SortFunc(covered, func(a, b date.Range) int { return a.From.Compare(b.From) })
	// The files are sorted by date: walk both, the ranges by their start,
	// keeping the furthest end reached.
	n, i := 0, 0
	var reach date.Date // the last day covered by the ranges begun so far
	for _, f := range g.Files {
		for ; i < len(covered) && !covered[i].From.After(f.Date); i++ {
			if reach.IsZero() || covered[i].To.After(reach) {
				reach = covered[i].To
			}
		}
		if !reach.IsZero() && !f.Date.After(reach) {
			n += int((f.Size + CharsPerToken - 1) / CharsPerToken)
		}
	}
	return n
}

// gatherer collects the candidates of one context.
type gatherer struct {
	in   GatherInput
	ctx  context.Context
	out  Gathered
	days map[date.Date]*dayfiles.Day
	seen map[string]bool
	// dayRel is the best relevance of each day's evidence.
	dayRel map[date.Date]float64
	// named: the query names a speaker of the entry hits; speakers caches
	// which speakers it names (see own).
	named    bool
	speakers map[string]bool
	// stale holds the evidence entries a newer one superseded, by id:
	// their id and text, and the id of the newer one (see supersede).
	stale []staleEntry
}

func (g *gatherer) add(c Candidate, covers date.Range) {
	if g.seen[c.ID] {
		return
	}
	g.seen[c.ID] = true
	g.out.Candidates = append(g.out.Candidates, c)
	g.out.Covers = append(g.out.Covers, covers)
}

func (g *gatherer) warn(msg string) { g.out.Warnings = append(g.out.Warnings, msg) }

// day parses a day file once.
func (g *gatherer) day(d date.Date) (*dayfiles.Day, error) {
	if day, ok := g.days[d]; ok {
		return day, nil
	}
	day, err := g.in.Files.Day(d)
	if err != nil {
		return nil, err
	}
	g.days[d] = day
	return day, nil
}

// addFrames adds the summaries of the evidence's days, in that order: the
// first framingDays at the top tier of the summaries (they frame the
// evidence), the rest at the tier of days.
func (g *gatherer) addFrames(days []date.Date) {
	for i, d := range days {
		p := consolidate.DayPeriod(d)
		s, err := g.in.Files.Summary(p.Path(g.in.Dir))
		if err != nil {
			continue // not consolidated yet, or unreadable: the entries stand alone
		}
		c := SummaryCandidate(s)
		c.Rank, c.Tier, c.Relevance = i-len(days), 0, g.dayRel[d] // shown before the years and months
		if i >= framingDays {
			c.Tier = 1 + levelOrder(date.LevelDay)
		}
		g.add(c, p.Range())
	}
}

// addHits adds the drill's hits, best first, each with its relevance to
// the best one.
func (g *gatherer) addHits(hits []daybook.RecallResult) {
	best := bestScore(hits)
	for rank, r := range hits {
		rel := 0.0
		if best > 0 {
			rel = r.Score / best
		}
		c, covers, ok := g.hit(r)
		if !ok {
			continue
		}
		c.Part, c.Hit, c.Relevance, c.Rank, c.Tier = PartSummaries, true, rel, rank, 0
		g.add(c, covers)
	}
}

// hit turns a recall result into a candidate; ok is false when its file
// went away or changed since the index saw it.
func (g *gatherer) hit(r daybook.RecallResult) (Candidate, date.Range, bool) {
	switch l := date.Level(r.Level); l {
	case date.LevelYear, date.LevelMonth, date.LevelDay:
		p, err := consolidate.ParsePeriod(l, r.Period)
		if err != nil {
			return Candidate{}, date.Range{}, false
		}
		s, err := g.in.Files.Summary(p.Path(g.in.Dir))
		if err != nil {
			g.in.Log.Debug("skipping a hit whose summary will not read", "id", r.ID, "err", err)
			return Candidate{}, date.Range{}, false
		}
		return SummaryCandidate(s), p.Range(), true
	case date.LevelEntry, date.LevelLine:
		d, err := date.Parse(r.Period)
		if err != nil {
			return Candidate{}, date.Range{}, false
		}
		day, err := g.day(d)
		if err != nil {
			return Candidate{}, date.Range{}, false
		}
		one := date.Range{From: d, To: d}
		if l == date.LevelEntry {
			for _, e := range day.Entries {
				if e.ID == r.ID {
					return EntryCandidate(e, PartSummaries), one, true
				}
			}
			return Candidate{}, date.Range{}, false
		}
		for _, n := range day.Notes {
			if n.ID(d) == r.ID {
				return Candidate{ID: r.ID, Level: string(date.LevelLine), Head: NoteLine(r.ID, n.Text), Date: d}, one, true
			}
		}
	}
	return Candidate{}, date.Range{}, false
}

// addSummaries adds the yearly summaries, the monthly ones of this year
// and the last recentMonths months, and the daily ones of the last
// recentDailies days, in that order, each oldest first.
func (g *gatherer) addSummaries() error {
	files, err := g.in.Files.Summaries()
	if err != nil {
		return err
	}
	today := g.in.Today
	monthFrom := today.MonthOf().Add(-recentMonths)
	dayFrom := today.AddDays(-recentDailies)
	var pick []consolidate.File
	for _, f := range files {
		p := f.Period
		switch p.Level {
		case date.LevelYear:
			pick = append(pick, f)
		case date.LevelMonth:
			if p.Year == today.Year || !p.Range().To.Before(monthFrom.First()) {
				pick = append(pick, f)
			}
		case date.LevelDay:
			if !p.Date().Before(dayFrom) {
				pick = append(pick, f)
			}
		}
	}
	// Years, then months, then days: consolidate.List gives the reverse order of levels.
	slices.SortStableFunc(pick, func(a, b consolidate.File) int { return levelOrder(a.Period.Level) - levelOrder(b.Period.Level) })
	for i, f := range pick {
		if err := g.ctx.Err(); err != nil {
			return err
		}
		s, err := g.in.Files.Summary(f.Path)
		if err != nil {
			g.warn("left out a summary that will not read: " + err.Error())
			continue
		}
		c := SummaryCandidate(s)
		c.Rank, c.Tier = i, 1+levelOrder(f.Period.Level)
		g.add(c, f.Period.Range())
	}
	return nil
}

func levelOrder(l date.Level) int {
	switch l {
	case date.LevelYear:
		return 0
	case date.LevelMonth:
		return 1
	default:
		return 2
	}
}

// addRecent adds the latest entries, walking back from the newest day file
// until they would fill the budget recentRead times over, or
// maxRecentEntries (see tuning.go).
func (g *gatherer) addRecent(files []dayfiles.File, budget int) {
	var picked []dayfiles.Entry
	tokens, captured, scanned := 0, 0, 0
	turns := map[string]int{} // of each captured conversation, picked
	full := func() bool {
		return tokens >= recentRead*budget || len(picked) >= maxRecentEntries || scanned >= maxRecentScanned
	}
	for i := len(files) - 1; i >= 0 && !full(); i-- {
		day, err := g.day(files[i].Date)
		if err != nil {
			g.warn("left out a day file that does not parse: " + err.Error())
			continue
		}
		for j := len(day.Entries) - 1; j >= 0 && !full(); j-- {
			e := day.Entries[j]
			scanned++
			n := Tokens(EntryLine(e))
			if conv := dayfiles.Conversation(e.Tags); conv != "" {
				// A captured session gives its last turns, and the
				// sessions a share of the part: an agent's busy day is
				// not the person's recent days.
				if turns[conv] >= recentTurns || captured+n > budget/recentCapturedShare {
					continue
				}
				turns[conv]++
				captured += n
				picked = append(picked, e)
				continue
			}
			picked = append(picked, e)
			tokens += n
		}
	}
	slices.Reverse(picked)
	for i, e := range picked {
		c := EntryCandidate(e, PartRecent)
		c.Rank = i
		if dayfiles.Captured(e.Tags) {
			c.Tier = 1 // placed after the person's own entries
		}
		g.add(c, date.Range{From: e.Day, To: e.Day})
	}
}

// Drop removes the candidates drop reports, with what they cover.
func (g *Gathered) Drop(drop func(Candidate) bool) {
	n := 0
	for i, c := range g.Candidates {
		if drop(c) {
			continue
		}
		g.Candidates[n] = c
		if i < len(g.Covers) {
			g.Covers[n] = g.Covers[i]
		}
		n++
	}
	g.Candidates = g.Candidates[:n]
	if len(g.Covers) > n {
		g.Covers = g.Covers[:n]
	}
}
