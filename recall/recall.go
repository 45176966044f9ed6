package recall

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
)

// MaxLimit is the most results one recall returns.
const MaxLimit = daybook.MaxRecallLimit

// Modes of daybook.RecallRequest.
const (
	ModeDrill  = daybook.ModeDrill
	ModeBM25   = daybook.ModeBM25
	ModeVector = daybook.ModeVector
	ModeLinear = daybook.ModeLinear
)

// Options carry what recall needs besides the index.
type Options struct {
	Root   string // the data dir, for the linear scan
	Now    func() time.Time
	Loc    *time.Location
	Log    *slog.Logger
	Fusion string // FuseSum (default) or FuseRRF
	Limit  int    // when the request gives none

	// Without lists summary levels the drill leaves out, as if they were
	// not written: the eval measures what each level contributes.
	Without []date.Level
}

// Check validates req and names what is wrong (req.CheckFields); Recall
// calls it too.
func Check(req daybook.RecallRequest) error { return req.CheckFields() }

// Recall answers req from s, or from the linear scan when s is nil, the
// pyramid has no summaries in range, or the drill finds too few hits.
func Recall(ctx context.Context, s Searcher, req daybook.RecallRequest, o Options) (daybook.RecallResponse, error) {
	if err := Check(req); err != nil {
		return daybook.RecallResponse{}, err
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Loc == nil {
		o.Loc = time.Local
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	limit := req.Limit
	if limit == 0 {
		limit = max(o.Limit, 1)
		if o.Limit == 0 {
			limit = DefaultLimit
		}
	}
	today := date.Of(o.Now().In(o.Loc))
	r, err := date.ParseRangeArgs(req.From, req.To, today)
	if err != nil {
		return daybook.RecallResponse{}, err
	}
	text := req.Query
	outer := r      // the range of --from/--to alone
	phrase := false // r narrowed by a temporal phrase of the query
	if tr, rest, ok := ParseTemporal(text, o.Now(), o.Loc); ok {
		text = rest
		if r.IsOpen() {
			r = tr
		} else if r, ok = r.Intersect(tr); !ok {
			return daybook.RecallResponse{Query: req.Query, Results: []daybook.RecallResult{}, Method: daybook.Method{Start: daybook.MethodNone}}, nil
		}
		phrase = true
	}
	resp, err := recallIn(ctx, s, req, o, text, r, phrase, outer, limit)
	if err != nil {
		return resp, err
	}
	if (req.Mode == "" || req.Mode == ModeDrill) && phrase && len(queryTerms(text)) > 0 && len(days(resp.Results)) < limit {
		// A temporal phrase may name when something happened, not when it
		// was written ("where is she going on the 10th of February?", asked
		// of a chat in January). The phrase's range is searched first and
		// its results come first; when they hold fewer days than the limit,
		// the best of the rest of the range follow.
		more, err := recallIn(ctx, s, req, o, text, outer, false, outer, limit)
		if err != nil {
			return resp, err
		}
		if merged := mergeOutside(resp.Results, more.Results, limit); len(merged) > len(resp.Results) || len(days(merged)) > len(days(resp.Results)) {
			resp.Results = merged
			resp.Method.Outside = true
		}
	}
	setDays(resp.Results)
	return resp, nil
}

// recallIn answers req inside r: the drill, a flat mode, or the linear scan.
func recallIn(ctx context.Context, s Searcher, req daybook.RecallRequest, o Options, text string, r date.Range, phrase bool, outer date.Range, limit int) (daybook.RecallResponse, error) {
	var err error
	resp := daybook.RecallResponse{Query: req.Query, Results: []daybook.RecallResult{}}
	if !r.IsOpen() {
		resp.Range = r.String()
	}
	if !hasWord(text) && r.IsOpen() {
		resp.Method.Start = daybook.MethodNone // nothing to look for: only punctuation or nothing at all
		return resp, nil
	}
	mode := req.Mode
	if mode == "" {
		mode = ModeDrill
	}
	if s == nil || mode == ModeLinear {
		return linear(ctx, resp, o, text, r, limit, date.Level(req.Level))
	}
	var vec []float32
	if hasWord(text) {
		if vec, err = s.EmbedQuery(ctx, text); err != nil {
			return resp, err
		}
	}
	method := o.Fusion
	if method == "" {
		method = FuseSum
	}
	var found []scored
	exhausted := false // BM25 found every entry in range with a query word
	switch mode {
	case ModeBM25, ModeVector:
		resp.Method.Start = daybook.MethodStart(mode)
		if found, err = flat(ctx, s, text, vec, r, date.LevelEntry, limit, mode, method); err != nil {
			return resp, err
		}
	default:
		var start date.Level
		for _, l := range []date.Level{date.LevelYear, date.LevelMonth, date.LevelDay} {
			if slices.Contains(o.Without, l) {
				continue
			}
			n, err := s.Count(ctx, l, r)
			if err != nil {
				return resp, err
			}
			if n > 0 {
				start = l
				break
			}
		}
		if start == "" {
			return linear(ctx, resp, o, text, r, limit, date.Level(req.Level))
		}
		resp.Method.Start = drillMethod(start)
		var path []string
		searched := r
		if phrase && len(queryTerms(text)) > 0 && !r.From.IsZero() && !r.To.IsZero() && r.From.AddDays(7).After(r.To) && (outer.To.IsZero() || r.To.Before(outer.To)) {
			// What a day is remembered for is often written the next day
			// ("yesterday I ..."), or after midnight: the day after a
			// phrase's range of a week or less is searched with it.
			searched.To = r.To.AddDays(1)
		}
		if found, path, exhausted, err = drill(ctx, s, text, vec, searched, start, limit, method, o.Without); err != nil {
			return resp, err
		}
		if req.Explain {
			resp.Path = path
		}
	}
	core := date.Range{}
	if phrase {
		core = r // the day after it, searched too, weighs less
	}
	if resp.Results, err = results(ctx, s, found, text, date.Level(req.Level), limit, req.Explain, mode == ModeBM25 || mode == ModeVector, core); err != nil {
		return resp, err
	}
	seen := make(map[string]bool, len(resp.Results))
	for _, res := range resp.Results {
		seen[res.ID] = true
	}
	if mode == ModeDrill && !exhausted && len(resp.Results) < limit && (req.Level == "" || date.Level(req.Level) == date.LevelEntry || date.Level(req.Level) == date.LevelLine) {
		// Too few hits: the linear scan fills up, after the drill's. Not
		// when the BM25 search of the range's entries found some but fewer
		// than it asked for: every entry with a word of the query is among
		// the candidates already, and scanning every day file for nothing
		// would cost more than the whole drill. When it found none (only
		// stop words, a range without them), the scan still runs: it
		// matches inside words and lists the range's newest entries.
		more, err := Linear(ctx, o.Root, text, r, limit, o.Log)
		if err != nil {
			return resp, err
		}
		floor := 1.0
		if n := len(resp.Results); n > 0 {
			floor = resp.Results[n-1].Score
		}
		added := 0
		for i, m := range more {
			if seen[m.ID] || len(resp.Results) >= limit || !levelWanted(date.Level(req.Level), date.Level(m.Level)) {
				continue
			}
			seen[m.ID] = true
			relabel(date.Level(req.Level), &m)
			m.Score = round(floor * linearFillShare / float64(i+1))
			if req.Explain {
				m.Explain = &daybook.Explain{Parent: "linear scan", Fused: m.Score}
			}
			resp.Results = append(resp.Results, m)
			added++
		}
		if added > 0 {
			resp.Method.Linear = true
		}
	}
	return resp, nil
}

// setDays names the day of each result that has one, so that clients need
// not parse paths or periods.
func setDays(rs []daybook.RecallResult) {
	for i, r := range rs {
		rs[i].Day = dayOf(r)
	}
}

func linear(ctx context.Context, resp daybook.RecallResponse, o Options, text string, r date.Range, limit int, level date.Level) (daybook.RecallResponse, error) {
	resp.Method.Start = daybook.MethodLinear
	res, err := Linear(ctx, o.Root, text, r, limit, o.Log)
	if err != nil {
		return resp, err
	}
	for _, x := range res {
		if levelWanted(level, date.Level(x.Level)) {
			relabel(level, &x)
			resp.Results = append(resp.Results, x)
		}
	}
	return resp, nil
}

func levelWanted(want, have date.Level) bool {
	return want == "" || want == have || want == date.LevelEntry && have == date.LevelLine
}

// drillMethod names a drill by the level it starts at.
func drillMethod(start date.Level) daybook.MethodStart {
	switch start {
	case date.LevelYear:
		return daybook.MethodDrill
	case date.LevelMonth:
		return daybook.MethodMonths
	case date.LevelDay:
		return daybook.MethodDays
	default:
		panic(fmt.Sprintf("recall: a drill cannot start at level %q", string(start)))
	}
}

func round(x float64) float64 { return math.Round(x*1e4) / 1e4 }

func hasWord(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

// days returns the distinct days of results, in order.
func days(rs []daybook.RecallResult) []string {
	var out []string
	for _, r := range rs {
		if d := dayOf(r); d != "" && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// dayOf returns the day of a day, entry or line result, "" for others.
func dayOf(r daybook.RecallResult) string {
	if l := date.Level(r.Level); l != date.LevelYear && l != date.LevelMonth && len(r.Period) >= 10 {
		return r.Period[:10]
	}
	return ""
}

// mergeOutside puts the results of the range outside a temporal phrase's
// after those inside it: first each inside day's first result, then each
// outside day's first, then the other inside results, then the other
// outside ones, cut to limit. Outside results of a month or a year are left
// out. Scores follow the order: none is above the one before it.
func mergeOutside(inside, outside []daybook.RecallResult, limit int) []daybook.RecallResult {
	seen := map[string]bool{}
	seenDay := map[string]bool{}
	var firstIn, restIn, firstOut, restOut []daybook.RecallResult
	for _, r := range inside {
		seen[r.ID] = true
		if d := dayOf(r); d == "" || !seenDay[d] {
			seenDay[d] = true
			firstIn = append(firstIn, r)
		} else {
			restIn = append(restIn, r)
		}
	}
	for _, r := range outside {
		d := dayOf(r)
		if seen[r.ID] || d == "" {
			continue
		}
		seen[r.ID] = true
		if !seenDay[d] {
			seenDay[d] = true
			firstOut = append(firstOut, r)
		} else {
			restOut = append(restOut, r)
		}
	}
	out := slices.Concat(firstIn, firstOut, restIn, restOut)
	out = out[:min(len(out), limit)]
	for i := 1; i < len(out); i++ {
		if i >= len(firstIn) {
			out[i].Score = round(min(out[i].Score, out[i-1].Score) * outsideStep)
		}
	}
	return out
}
