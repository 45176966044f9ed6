package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/daybook/daybook/api"
	"github.com/daybook/daybook/assemble"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/date"
	"github.com/daybook/daybook/dayfiles"
)

// FoundationFile is the foundation of every context, under the data dir:
// identity, standing instructions, facts that must never fade.
const FoundationFile = "foundation.md"

// Limits of a context request.
const (
	MaxContextBudget  = 1 << 20 // tokens
	maxFoundationSize = 1 << 20 // bytes
	recentDailies     = 14      // days back whose daily summaries are candidates
	recentMonths      = 3       // months back (besides this year's) whose summaries are candidates
	maxRecentEntries  = 400     // entries considered for the recent part
)

// Context assembles an agent's context: foundation.md whole; the yearly
// summaries, this year's monthly ones and the last days' daily ones, with a
// query's drill hits first; the latest entries verbatim, newest last. The
// budget is kept by assemble's token estimate, unless foundation.md alone
// is over it, which the block and Warnings say. What does not fit is chosen
// by the memory utility score (assemble.Utility).
func (a *App) Context(ctx context.Context, req api.ContextRequest) (api.ContextResponse, error) {
	budget := req.Budget
	if budget == 0 {
		budget = a.Config.Context.Budget
	}
	if budget < 1 || budget > MaxContextBudget {
		return api.ContextResponse{}, userErrf("budget: %d tokens: want 1 to %d", req.Budget, MaxContextBudget)
	}
	query := strings.TrimSpace(req.Query)
	if len(query) > api.MaxQuery || !utf8.ValidString(query) {
		return api.ContextResponse{}, userErrf("query: want UTF-8 of at most %d bytes", api.MaxQuery)
	}
	today := a.Today()
	resp := api.ContextResponse{Budget: budget}

	foundation, err := a.readFoundation()
	if err != nil {
		return resp, err
	}
	g := &gatherer{a: a, ctx: ctx, today: today, days: map[date.Date]*dayfiles.Day{}, seen: map[string]bool{}}
	hits := 0
	if query != "" {
		if hits, err = g.addHits(query); err != nil {
			return resp, err
		}
	}
	if err := g.addSummaries(); err != nil {
		return resp, err
	}
	// Day files past the window (days/2999/ made by hand) are not recent.
	files, err := dayfiles.List(a.Dir, date.Range{To: today.AddDays(a.Config.Window().Ahead)}, a.Log)
	if err != nil {
		return resp, err
	}
	g.addRecent(files, budget)
	uses := a.usesOf()
	for i := range g.cands {
		g.cands[i].Uses = uses[g.cands[i].ID].N
	}

	title := "# daybook context · " + today.String()
	if query != "" {
		title += fmt.Sprintf("\nQuery: %s", query)
		if hits == 0 {
			title += " (nothing recalled)"
		}
	}
	title += "\nIds in [brackets] expand to the full text."
	res := assemble.Build(assemble.Input{
		Title: title, Foundation: foundation, Budget: budget, Today: today,
		SummaryShare: a.Config.Context.Summary, RecentShare: a.Config.Context.Recent,
		Candidates: g.cands,
	})
	resp.Markdown, resp.Tokens, resp.Omitted = res.Markdown, res.Tokens, res.Omitted
	resp.Warnings = append(g.warnings, res.Warnings...)
	covered := map[date.Date]bool{}
	for _, p := range res.Placed {
		if p.Index < 0 {
			resp.Items = append(resp.Items, api.ContextItem{ID: "foundation", Part: string(assemble.PartFoundation),
				Level: "foundation", Tokens: p.Tokens})
			continue
		}
		c := g.cands[p.Index]
		resp.Items = append(resp.Items, api.ContextItem{ID: c.ID, Part: string(c.Part), Level: c.Level,
			Tokens: p.Tokens, Utility: p.Utility, Truncated: p.Truncated})
		r := g.covers[p.Index]
		for d := r.From; !d.After(r.To); d = d.AddDays(1) {
			covered[d] = true
		}
	}
	for _, f := range files {
		if covered[f.Date] {
			resp.RawTokens += int((f.Size + assemble.CharsPerToken - 1) / assemble.CharsPerToken)
		}
	}
	return resp, nil
}

// readFoundation reads foundation.md; a missing one is "".
func (a *App) readFoundation() (string, error) {
	path := filepath.Join(a.Dir, FoundationFile)
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading the foundation: %w", err)
	}
	if fi.Size() > maxFoundationSize {
		return "", userErrf("%s: %d bytes is over the %d MiB limit of the foundation", path, fi.Size(), maxFoundationSize>>20)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("reading the foundation: %w", err)
	}
	if !utf8.Valid(data) {
		return "", userErrf("%s: not UTF-8 text", path)
	}
	return strings.TrimSpace(strings.ReplaceAll(string(data), "\r\n", "\n")), nil
}

// gatherer collects the candidates of one context.
type gatherer struct {
	a        *App
	ctx      context.Context
	today    date.Date
	cands    []assemble.Candidate
	covers   []date.Range // the days each candidate stands for
	days     map[date.Date]*dayfiles.Day
	seen     map[string]bool
	warnings []string
}

func (g *gatherer) add(c assemble.Candidate, covers date.Range) {
	if g.seen[c.ID] {
		return
	}
	g.seen[c.ID] = true
	g.cands = append(g.cands, c)
	g.covers = append(g.covers, covers)
}

// day parses a day file once.
func (g *gatherer) day(d date.Date) (*dayfiles.Day, error) {
	if day, ok := g.days[d]; ok {
		return day, nil
	}
	day, err := dayfiles.ParseFile(dayfiles.Path(g.a.Dir, d), d)
	if err != nil {
		return nil, err
	}
	g.days[d] = day
	return day, nil
}

// addHits adds the drill's hits for query, best first, and returns how many
// it found. A recall that fails for daybook's reasons is a warning: the
// context goes on without hits.
func (g *gatherer) addHits(query string) (int, error) {
	rr, err := g.a.recall(g.ctx, api.RecallRequest{Query: query})
	if IsUserError(err) || g.ctx.Err() != nil {
		return 0, err
	}
	if err != nil {
		g.warnings = append(g.warnings, "recall failed, so the context has no hits for the query: "+err.Error())
		return 0, nil
	}
	best := 0.0
	for _, r := range rr.Results {
		best = max(best, r.Score)
	}
	for rank, r := range rr.Results {
		rel := 0.0
		if best > 0 {
			rel = r.Score / best
		}
		c, covers, ok := g.hit(r)
		if !ok {
			continue
		}
		c.Part, c.Hit, c.Relevance, c.Rank, c.Tier = assemble.PartSummaries, true, rel, rank, 0
		g.add(c, covers)
	}
	return len(rr.Results), nil
}

// hit turns a recall result into a candidate; ok is false when its file
// went away or changed since the index saw it.
func (g *gatherer) hit(r api.RecallResult) (assemble.Candidate, date.Range, bool) {
	switch l := date.Level(r.Level); l {
	case date.LevelYear, date.LevelMonth, date.LevelDay:
		p, err := consolidate.ParsePeriod(l, r.Period)
		if err != nil {
			return assemble.Candidate{}, date.Range{}, false
		}
		s, err := consolidate.ReadSummary(p.Path(g.a.Dir))
		if err != nil {
			g.a.Log.Debug("skipping a hit whose summary will not read", "id", r.ID, "err", err)
			return assemble.Candidate{}, date.Range{}, false
		}
		return assemble.SummaryCandidate(s), p.Range(), true
	case date.LevelEntry, date.LevelLine:
		d, err := date.Parse(r.Period)
		if err != nil {
			return assemble.Candidate{}, date.Range{}, false
		}
		day, err := g.day(d)
		if err != nil {
			return assemble.Candidate{}, date.Range{}, false
		}
		one := date.Range{From: d, To: d}
		if r.Level == "entry" {
			for _, e := range day.Entries {
				if e.ID == r.ID {
					return assemble.EntryCandidate(e, assemble.PartSummaries), one, true
				}
			}
			return assemble.Candidate{}, date.Range{}, false
		}
		for _, n := range day.Notes {
			if n.ID(d) == r.ID {
				return assemble.Candidate{ID: r.ID, Level: string(date.LevelLine), Head: assemble.NoteLine(r.ID, n.Text), Date: d}, one, true
			}
		}
	}
	return assemble.Candidate{}, date.Range{}, false
}

// addSummaries adds the yearly summaries, the monthly ones of this year
// and the last recentMonths months, and the daily ones of the last
// recentDailies days, in that order, each oldest first.
func (g *gatherer) addSummaries() error {
	files, err := consolidate.List(g.a.Dir, "", date.Range{})
	if err != nil {
		return err
	}
	monthFrom := g.today.MonthOf().Add(-recentMonths)
	dayFrom := g.today.AddDays(-recentDailies)
	var pick []consolidate.File
	for _, f := range files {
		p := f.Period
		switch p.Level {
		case consolidate.LevelYear:
			pick = append(pick, f)
		case consolidate.LevelMonth:
			if p.Year == g.today.Year || !p.Range().To.Before(monthFrom.First()) {
				pick = append(pick, f)
			}
		case consolidate.LevelDay:
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
		s, err := consolidate.ReadSummary(f.Path)
		if err != nil {
			g.warnings = append(g.warnings, "left out a summary that will not read: "+err.Error())
			continue
		}
		c := assemble.SummaryCandidate(s)
		c.Rank, c.Tier = i, 1+levelOrder(f.Period.Level)
		g.add(c, f.Period.Range())
	}
	return nil
}

func levelOrder(l consolidate.Level) int {
	switch l {
	case consolidate.LevelYear:
		return 0
	case consolidate.LevelMonth:
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
			g.warnings = append(g.warnings, "left out a day file that does not parse: "+err.Error())
			continue
		}
		for j := len(day.Entries) - 1; j >= 0 && tokens < 2*budget && len(picked) < maxRecentEntries; j-- {
			e := day.Entries[j]
			picked = append(picked, e)
			tokens += assemble.Tokens(assemble.EntryLine(e))
		}
	}
	slices.Reverse(picked)
	for i, e := range picked {
		c := assemble.EntryCandidate(e, assemble.PartRecent)
		c.Rank = i
		g.add(c, date.Range{From: e.Day, To: e.Day})
	}
}
