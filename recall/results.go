package recall

import (
	"context"
	"slices"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/dayfiles/entrytext"
	"github.com/daybook/daybook/index"
)

// results turns the candidates into the response's results: ranked by
// answer (the drill's), or as they come (a flat mode's, best first), of the
// wanted level, cut to limit. Only then are the
// stored fields and spans of those returned read, in one Load (a second one
// when some went from the index meanwhile). A "line" level asks for the
// note kind, which only the stored fields tell: the entries are read first.
func results(ctx context.Context, s Searcher, found []scored, text string, level date.Level, limit int, explain, flat bool, core date.Range) ([]daybook.RecallResult, error) {
	ranked := found
	if !flat {
		ranked = answer(found, level, core)
	}
	var cands []scored
	for _, c := range ranked {
		if level != date.LevelLine && !levelWanted(level, c.hit.Level) || level == date.LevelLine && c.hit.Level != date.LevelEntry {
			continue
		}
		cands = append(cands, c)
	}
	if level == date.LevelLine {
		docs, err := load(ctx, s, text, cands)
		if err != nil {
			return nil, err
		}
		cands = slices.DeleteFunc(cands, func(c scored) bool { return docs[c.hit.ID].Kind != index.KindText })
	}
	terms := queryStems(text)
	out := []daybook.RecallResult{}
	var stmts []Statement
	cites := map[string][]string{} // a captured answer's id: the entries it restates
	for len(out) < limit && len(cands) > 0 {
		batch := cands[:min(len(cands), limit-len(out))]
		cands = cands[len(batch):]
		docs, err := load(ctx, s, text, batch)
		if err != nil {
			return nil, err
		}
		for _, c := range batch {
			d, ok := docs[c.hit.ID]
			if !ok {
				continue // gone from the index since it was ranked
			}
			c.hit = d
			if ids := entrytext.Cites(d.Text); len(ids) > 0 && dayfiles.Captured(d.Tags) {
				cites[d.ID] = ids
			}
			out = append(out, result(c, terms, explain, level))
			stmts = append(stmts, statementOf(c))
		}
	}
	if !flat && level != date.LevelDay && level != date.LevelMonth && level != date.LevelYear {
		pool, poolStmts, err := subjectPool(ctx, s, text, ranked, out, level, terms, explain, subjectPoolPerResult*limit)
		if err != nil {
			return nil, err
		}
		out = supersede(text, out, pool, append(stmts, poolStmts...))
	}
	return belowCited(out, cites), nil
}

// subjectPool returns the n best entries by BM25 among the candidates
// ranked that are not in the list out, with their statements (Outside),
// for Supersede: the current statement of a subject the list holds may
// rank below it (see subjectPoolPerResult).
func subjectPool(ctx context.Context, s Searcher, text string, ranked []scored, out []daybook.RecallResult, level date.Level, terms map[string]bool, explain bool, n int) ([]daybook.RecallResult, []Statement, error) {
	if n <= 0 {
		return nil, nil, nil
	}
	in := make(map[string]bool, len(out))
	for _, r := range out {
		in[r.ID] = true
	}
	// The n best by BM25 (newer first among equals), kept in order as the
	// candidates go by: a context's recall ranks a thousand of them, and
	// sorting them all would cost more than reading the n.
	better := func(a, b *scored) bool {
		return a.bm25 > b.bm25 || a.bm25 == b.bm25 && a.hit.ID > b.hit.ID
	}
	best := make([]*scored, 0, n)
	for i := range ranked {
		c := &ranked[i]
		if c.hit.Level != date.LevelEntry || c.bm25 <= 0 || in[c.hit.ID] || len(best) == n && !better(c, best[n-1]) {
			continue
		}
		at := len(best)
		for at > 0 && better(c, best[at-1]) {
			at--
		}
		if len(best) < n {
			best = append(best, nil)
		}
		copy(best[at+1:], best[at:len(best)-1])
		best[at] = c
	}
	if len(best) == 0 {
		return nil, nil, nil
	}
	cands := make([]scored, len(best))
	for i, c := range best {
		cands[i] = *c
	}
	docs, err := load(ctx, s, text, cands)
	if err != nil {
		return nil, nil, err
	}
	var pool []daybook.RecallResult
	var stmts []Statement
	for _, c := range cands {
		d, ok := docs[c.hit.ID]
		if !ok || level == date.LevelLine && d.Kind != index.KindText {
			continue
		}
		c.hit = d
		pool = append(pool, result(c, terms, explain, level))
		st := statementOf(c)
		st.Outside = true
		stmts = append(stmts, st)
	}
	return pool, stmts, nil
}

// statementOf is the statement of a candidate, its stored fields read,
// scored by its BM25: how much of the query the entry itself says. The
// score the list is ranked by is its day's (answer), which weighs the
// day's summary and other entries too, and so tells nothing of how two
// entries of a subject compare.
func statementOf(c scored) Statement {
	h := c.hit
	return Statement{ID: h.ID, Text: h.Text, Kind: h.Kind, Tags: h.Tags, Score: c.bm25}
}

// belowCited moves each captured answer that cites entries of out (an
// agent's restatement of what it was handed) to just below the last of
// them, with its score: an echo never outranks what it restates.
func belowCited(out []daybook.RecallResult, cites map[string][]string) []daybook.RecallResult {
	if len(cites) == 0 {
		return out
	}
	for range len(out) { // each pass moves one answer down; an answer moved stays below
		moved := false
		for i := 0; i < len(out) && !moved; i++ {
			ids := cites[out[i].ID]
			last := -1
			for j := i + 1; j < len(out); j++ {
				if slices.Contains(ids, out[j].ID) {
					last = j
				}
			}
			if last < 0 {
				continue
			}
			r := out[i]
			r.Score = out[last].Score
			copy(out[i:last], out[i+1:last+1])
			out[last] = r
			moved = true
		}
		if !moved {
			break
		}
	}
	return out
}

// supersede puts the newest statement of a subject that changed before
// the older ones, among near-equals, and marks those it superseded (see
// Supersede). pool holds candidates past the list, read for their
// subjects: the current statement of a subject the list holds comes in
// from there, at the subject's best place. stmts holds the statements of
// out, then of pool. The scores stay with the places: the list stays in
// score order, and as long as it was.
func supersede(text string, out, pool []daybook.RecallResult, stmts []Statement) []daybook.RecallResult {
	all := append(slices.Clip(out), pool...)
	for i := range stmts {
		if l := date.Level(all[i].Level); l != date.LevelEntry && l != date.LevelLine {
			stmts[i].Text = "" // a summary states no value
		}
	}
	order, by := Supersede(NewQueryWords(text), stmts)
	if order == nil {
		return out
	}
	moved := make([]daybook.RecallResult, len(out))
	for k := range moved {
		i := order[k]
		moved[k] = all[i]
		moved[k].Score = out[k].Score
		moved[k].SupersededBy = by[i]
	}
	return moved
}

// load reads the stored documents of cands: with the spans of the query's
// terms for those BM25 found, without for those found by vector alone (their
// snippet marks the words whose stems are the query's).
func load(ctx context.Context, s Searcher, text string, cands []scored) (map[string]index.Hit, error) {
	var spans, plain []string
	for _, c := range cands {
		if c.bm25Rank > 0 {
			spans = append(spans, c.hit.ID)
		} else {
			plain = append(plain, c.hit.ID)
		}
	}
	return s.Load(ctx, text, spans, plain)
}

// relabel names a line an entry when the request asked for entries: a
// line of free text is an entry-level document (the index ranks it with
// the entries), and a result list labelled other than asked confuses.
func relabel(want date.Level, r *daybook.RecallResult) {
	if want == date.LevelEntry && r.Level == string(date.LevelLine) {
		r.Level = string(date.LevelEntry)
	}
}

// result turns a scored candidate, its stored fields read, into its API
// form.
func result(c scored, terms map[string]bool, explain bool, level date.Level) daybook.RecallResult {
	h := c.hit
	res := daybook.RecallResult{
		ID: h.ID, Level: string(h.Level), Period: h.Period, Score: round(c.fused),
		Snippet: snippet(h, terms), Path: h.Path, Line: h.Line,
	}
	if h.Kind == index.KindText {
		res.Level = string(date.LevelLine)
	}
	relabel(level, &res)
	if explain {
		res.Explain = &daybook.Explain{
			Parent: c.parent, BM25: round(c.bm25), BM25Rank: c.bm25Rank, Cosine: round(c.cosine),
			CosineRank: c.cosineRank, Fused: round(c.fused),
		}
		if d := c.day; d != nil {
			res.Explain.Day = &daybook.DayScore{Entries: round(d.entries), Summary: round(d.summary), Score: round(d.score)}
		}
	}
	return res
}
