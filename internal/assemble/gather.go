package assemble

import (
	"context"
	"log/slog"
	"math"
	"slices"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/util/date"
)

// How far back a context looks.
const (
	recentDailies    = RecentDays // days back whose daily summaries are candidates
	recentMonths     = 3          // months back (besides this year's) whose summaries are candidates
	maxRecentEntries = 400        // entries considered for the recent part
)

// GatherInput says where and for what a context's candidates are gathered.
type GatherInput struct {
	Dir    string    // the data dir
	Today  date.Date // in the configured zone
	Ahead  int       // days past Today the date window reaches: day files beyond are not recent
	Budget int       // tokens: the recent part reads entries to twice this
	// Hits are the drill's results for the query, best first; none without
	// a query.
	Hits []api.RecallResult
	// Evidence: the query has words of its own (not only a date, or stop
	// words), so its entry hits are evidence (see PartEvidence), each with
	// its neighbouring entries, and the summaries of their days frame them.
	Evidence bool
	Log      *slog.Logger
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
	g := &gatherer{in: in, ctx: ctx, days: map[date.Date]*dayfiles.Day{}, seen: map[string]bool{}}
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
	g.addRecent(files, in.Budget)
	return g.out, nil
}

// RawTokens estimates the tokens of the day files that the placed items
// stand for: what reading them whole would have cost.
func (g Gathered) RawTokens(placed []Placed) int {
	covered := map[date.Date]bool{}
	for _, p := range placed {
		if p.Index < 0 {
			continue
		}
		r := g.Covers[p.Index]
		for d := r.From; !d.After(r.To); d = d.AddDays(1) {
			covered[d] = true
		}
	}
	n := 0
	for _, f := range g.Files {
		if covered[f.Date] {
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

// Neighbours of an evidence entry in its day file (and on into the next
// or previous day's), and how much of the entry's relevance each keeps: an
// entry k after a hit keeps decayAfter^k of it, k before decayBefore^k (a
// message's replies come after it, what it answers before it), so that
// the best days are read outward from their hits as far as the budget goes.
const (
	neighboursAfter  = 40
	neighboursBefore = 40
	decayAfter       = 0.85
	decayBefore      = 0.8
)

// relevancePower sharpens a hit's relevance (its score over the best's):
// the neighbours of the best days' hits come before the lone hits of days
// that scored far below.
const relevancePower = 2

// previewTokens is the most tokens of a neighbour's text: a longer one is
// cut at a word, marked " …", and its line expands to it whole. Hits are
// given whole.
const previewTokens = 30

// addEvidence adds the entry and line hits as evidence, each with its
// neighbouring entries at a share of its relevance (an entry near several
// hits takes the best); it returns the other hits, and the days of the
// evidence in the order of their best hit.
func (g *gatherer) addEvidence(hits []api.RecallResult) ([]api.RecallResult, []date.Date) {
	best := 0.0
	for _, r := range hits {
		best = max(best, r.Score)
	}
	type item struct {
		c      Candidate
		entry  *dayfiles.Entry // rendered once all are in; nil for a line
		covers date.Range
	}
	items := map[string]*item{}
	var order []string // ids, in the order first seen
	var days []date.Date
	g.dayRel = map[date.Date]float64{}
	// put adds it on day d with its relevance and rank; an item seen again
	// keeps its best and is a hit if either is.
	put := func(it *item, d date.Date, rel float64, rank int) {
		g.dayRel[d] = max(g.dayRel[d], rel)
		if old, ok := items[it.c.ID]; ok {
			if rel > old.c.Relevance {
				old.c.Relevance, old.c.Rank = rel, rank
			}
			old.c.Hit = old.c.Hit || it.c.Hit
			return
		}
		it.c.Part, it.c.Relevance, it.c.Rank, it.covers = PartEvidence, rel, rank, date.Range{From: d, To: d}
		items[it.c.ID] = it
		order = append(order, it.c.ID)
		if !slices.Contains(days, d) {
			days = append(days, d)
		}
	}
	var rest []api.RecallResult
	for rank, r := range hits {
		l := date.Level(r.Level)
		if l != date.LevelEntry && l != date.LevelLine {
			rest = append(rest, r)
			continue
		}
		d, err := date.Parse(r.Period)
		if err != nil {
			continue
		}
		day, err := g.day(d)
		if err != nil {
			continue
		}
		rel := 0.0
		if best > 0 {
			rel = math.Pow(r.Score/best, relevancePower)
		}
		group := EvidenceGroup(d)
		if l == date.LevelLine {
			for _, n := range day.Notes {
				if n.ID(d) == r.ID {
					put(&item{c: Candidate{ID: r.ID, Level: string(date.LevelLine), Head: NoteLine(r.ID, n.Text), Date: d,
						Hit: true, Group: group, Line: n.Line}}, d, rel, 2*rank)
				}
			}
			continue
		}
		at := slices.IndexFunc(day.Entries, func(e dayfiles.Entry) bool { return e.ID == r.ID })
		if at < 0 {
			continue
		}
		ev := func(e dayfiles.Entry, hit bool) *item {
			return &item{c: Candidate{ID: e.ID, Level: string(date.LevelEntry), Date: e.Day, Hit: hit, Line: e.Line}, entry: &e}
		}
		put(ev(day.Entries[at], true), d, rel, 2*rank)
		for k, e := range g.following(day, at, neighboursAfter, 1) {
			put(ev(e, false), e.Day, rel*math.Pow(decayAfter, float64(k+1)), 2*rank+1)
		}
		for k, e := range g.following(day, at, neighboursBefore, -1) {
			put(ev(e, false), e.Day, rel*math.Pow(decayBefore, float64(k+1)), 2*rank+1)
		}
	}
	// Rendered once each: a hit whole, a neighbour cut to a preview.
	for _, id := range order {
		it := items[id]
		if e := it.entry; e != nil {
			it.c.Group = EvidenceGroup(e.Day)
			if it.c.Hit {
				it.c.Head = EvidenceLine(*e)
			} else {
				it.c.Head, it.c.Cut = EvidenceLineCut(*e, previewTokens)
			}
		}
		g.add(it.c, it.covers)
	}
	return rest, days
}

// following returns the n entries after (step 1) or before (step -1)
// entry at of day, nearest first, going on into the next (or previous)
// day's file when there is one: a conversation goes on past midnight.
func (g *gatherer) following(day *dayfiles.Day, at, n, step int) []dayfiles.Entry {
	var out []dayfiles.Entry
	for i := at + step; len(out) < n; i += step {
		if i < 0 || i >= len(day.Entries) {
			next, err := g.day(day.Date.AddDays(step))
			if err != nil || len(next.Entries) == 0 || day.Date.AddDays(step) != next.Date {
				break
			}
			day = next
			if i = 0; step < 0 {
				i = len(day.Entries) - 1
			}
		}
		out = append(out, day.Entries[i])
	}
	return out
}

// framingDays is how many of the evidence's days (the best first) have
// their summaries placed before the years and months; the others' come
// with the last days' daily summaries.
const framingDays = 3

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
func (g *gatherer) addHits(hits []api.RecallResult) {
	best := 0.0
	for _, r := range hits {
		best = max(best, r.Score)
	}
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
func (g *gatherer) hit(r api.RecallResult) (Candidate, date.Range, bool) {
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
// until they would fill the whole budget twice over or maxRecentEntries.
func (g *gatherer) addRecent(files []dayfiles.File, budget int) {
	var picked []dayfiles.Entry
	tokens := 0
	for i := len(files) - 1; i >= 0 && tokens < 2*budget && len(picked) < maxRecentEntries; i-- {
		day, err := g.day(files[i].Date)
		if err != nil {
			g.warn("left out a day file that does not parse: " + err.Error())
			continue
		}
		for j := len(day.Entries) - 1; j >= 0 && tokens < 2*budget && len(picked) < maxRecentEntries; j-- {
			e := day.Entries[j]
			picked = append(picked, e)
			tokens += Tokens(EntryLine(e))
		}
	}
	slices.Reverse(picked)
	for i, e := range picked {
		c := EntryCandidate(e, PartRecent)
		c.Rank = i
		g.add(c, date.Range{From: e.Day, To: e.Day})
	}
}
