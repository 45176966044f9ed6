package assemble

import (
	"container/heap"
	"math"
	"slices"
	"strings"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/dayfiles/entrytext"
	"github.com/daybook/daybook/recall"
)

// addEvidence adds the entry and line hits as evidence, and the entries
// near them that repeat the query's words (wordMatches), each with its
// neighbouring entries at a share of its relevance (an entry near several
// hits takes the best; another speaker's message less, see own), the most
// relevant first, until they take evidenceRead times the budget; it
// returns the other hits, and the days of the evidence given, in the order
// of their most relevant item.
//
// The neighbours are read lazily: every hit, once read, starts two walks
// (after it and before it), and the walk whose next entry is the most
// relevant gives it, so that only what may be placed is read and rendered.
func (g *gatherer) addEvidence(hits []daybook.RecallResult) ([]daybook.RecallResult, []date.Date) {
	g.dayRel = map[date.Date]float64{}
	r := &evidenceReader{g: g, isHit: map[string]bool{}, superseded: supersededBy(hits),
		hitDays: map[date.Date]float64{}, seen: map[string]bool{}, cites: map[string][]string{}, groups: map[date.Date]string{}}
	rest := r.leadHits(hits)
	r.leadEntries(len(hits))
	r.read()
	g.supersede(r.stated, r.stmts)
	g.belowCited(r.cites)
	return rest, r.days
}

// evidenceReader is the state of one addEvidence: the leads waiting, the
// entry hits they start from, and what was given.
type evidenceReader struct {
	g *gatherer
	q leads
	// isHit marks the entry hits by id; superseded is, by id, the newer
	// entry that changed a hit (recall.Supersede).
	isHit      map[string]bool
	superseded map[string]string
	// entryHits are the entries the walks start from: the entry hits, then
	// the word matches; hitDays is the best score of each day's entry hits
	// over the best hit's.
	entryHits []entryHit
	hitDays   map[date.Date]float64
	// seen marks what was given, by id; stated are the entries given, as
	// indexes into the candidates, and stmts their texts (for supersede);
	// cites what each captured answer given cites (for belowCited).
	seen   map[string]bool
	stated []int
	stmts  []recall.Statement
	cites  map[string][]string
	// groups is each day's evidence heading; days the days given, in the
	// order of their most relevant item; tokens what was given so far.
	groups map[date.Date]string
	days   []date.Date
	tokens int
}

// entryHit is an entry a walk starts from, at rel, ranked rank.
type entryHit struct {
	day  *dayfiles.Day
	at   int
	rel  float64
	rank int
}

// supersededBy returns, by id, the newer entry that changed each hit that
// recall found superseded.
func supersededBy(hits []daybook.RecallResult) map[string]string {
	by := map[string]string{}
	for _, h := range hits {
		if h.SupersededBy != "" {
			by[h.ID] = h.SupersededBy
		}
	}
	return by
}

// bestScore is the best score of hits; 0 without any.
func bestScore(hits []daybook.RecallResult) float64 {
	best := 0.0
	for _, h := range hits {
		best = max(best, h.Score)
	}
	return best
}

// leadHits decides where each hit leads: a line hit is a lead of its own,
// an entry hit starts walks (entryHits); it returns the hits of the other
// levels. A hit's relevance is its score over the best's, sharpened by
// relevancePower; one whose day file will not read, or no longer holds
// it, is left out.
func (r *evidenceReader) leadHits(hits []daybook.RecallResult) (rest []daybook.RecallResult) {
	best := bestScore(hits)
	for rank, h := range hits {
		l := date.Level(h.Level)
		if l != date.LevelEntry && l != date.LevelLine {
			rest = append(rest, h)
			continue
		}
		d, err := date.Parse(h.Period)
		if err != nil {
			continue
		}
		day, err := r.g.day(d)
		if err != nil {
			continue
		}
		rel := 0.0
		if best > 0 {
			rel = math.Pow(h.Score/best, relevancePower)
		}
		if l == date.LevelLine {
			r.leadNote(day, d, h.ID, rel, 2*rank)
			continue
		}
		at := slices.IndexFunc(day.Entries, func(e dayfiles.Entry) bool { return e.ID == h.ID })
		if at < 0 {
			continue
		}
		r.isHit[h.ID] = true
		r.entryHits = append(r.entryHits, entryHit{day: day, at: at, rel: rel, rank: 2 * rank})
		if best > 0 {
			r.hitDays[d] = max(r.hitDays[d], h.Score/best)
		}
		if !r.g.named {
			r.g.named = r.g.names(&day.Entries[at])
		}
	}
	return rest
}

// leadNote makes the free-text note id of day, of date d, a lead at rel,
// ranked rank: it is given whole.
func (r *evidenceReader) leadNote(day *dayfiles.Day, d date.Date, id string, rel float64, rank int) {
	for _, n := range day.Notes {
		if n.ID(d) == id {
			c := Candidate{ID: id, Level: string(date.LevelLine), Head: NoteLine(id, n.Text), Date: d,
				Hit: true, Group: EvidenceGroup(d), Line: n.Line}
			r.q.push(lead{rel: rel, rank: rank, note: &c})
		}
	}
}

// leadEntries adds to the entry hits the entries of their days that
// repeat the query's rare words (see wordMatches; an entry hit takes the
// better of its two relevances), ranked after the n hits, and makes each
// a lead: the walk that gives just it.
func (r *evidenceReader) leadEntries(n int) {
	byEntry := map[string]int{}
	hitsAt := map[*dayfiles.Day][]int{}
	for i, h := range r.entryHits {
		byEntry[h.day.Entries[h.at].ID] = i
		hitsAt[h.day] = append(hitsAt[h.day], h.at)
	}
	for _, m := range r.g.wordMatches(hitsAt, r.hitDays) {
		if i, ok := byEntry[m.day.Entries[m.at].ID]; ok {
			r.entryHits[i].rel = max(r.entryHits[i].rel, m.rel)
			continue
		}
		r.entryHits = append(r.entryHits, entryHit{day: m.day, at: m.at, rel: m.rel, rank: 2*n + 2*m.n})
	}
	for _, h := range r.entryHits {
		r.q.push(lead{rel: h.rel, rank: h.rank, walk: &walk{day: h.day, i: h.at, n: 1, rel: h.rel}})
	}
}

// read gives the leads, the most relevant first, until what was given
// takes evidenceRead times the budget: a note as it is, an entry once
// (nearer another hit, or a hit itself, it was given already) after its
// walk offers what comes next.
func (r *evidenceReader) read() {
	for r.q.Len() > 0 && r.tokens <= evidenceRead*r.g.in.Budget {
		l := r.q.pop()
		if l.note != nil {
			r.giveNote(l)
			continue
		}
		w := l.walk
		e := &w.day.Entries[w.i]
		r.follow(l)
		if !r.seen[e.ID] {
			r.giveEntry(e, l)
		}
	}
}

// follow pushes what walk lead l offers next: for a hit, the first
// entries of its two walks outward, which are less relevant (see own);
// and the walk's own next entry, until it gave its n.
func (r *evidenceReader) follow(l lead) {
	g, w := r.g, l.walk
	if w.step == 0 {
		for _, n := range g.walks(w.day, w.i, w.rel) {
			if g.advance(n) {
				n.rel = w.rel * n.decay
				r.q.push(lead{rel: n.rel * g.own(&n.day.Entries[n.i]), rank: l.rank + 1, walk: n})
			}
		}
	}
	if w.k++; w.k < w.n && g.advance(w) {
		w.rel *= w.decay
		r.q.push(lead{rel: w.rel * g.own(&w.day.Entries[w.i]), rank: l.rank, walk: w})
	}
}

// given notes day d's first item, at rel: the leads come most relevant
// first.
func (r *evidenceReader) given(d date.Date, rel float64) {
	if _, ok := r.g.dayRel[d]; !ok {
		r.g.dayRel[d] = rel
		r.days = append(r.days, d)
	}
}

// giveNote adds the note of lead l as evidence, once.
func (r *evidenceReader) giveNote(l lead) {
	if r.seen[l.note.ID] {
		return
	}
	r.seen[l.note.ID] = true
	r.given(l.note.Date, l.rel)
	c := *l.note
	c.Part, c.Relevance, c.Rank = PartEvidence, l.rel, l.rank
	if by := r.superseded[c.ID]; by != "" {
		c.SupersededBy, c.Head = by, MarkSuperseded(c.Head, by)
	}
	r.tokens += Tokens(c.Head)
	r.g.add(c, date.Range{From: c.Date, To: c.Date})
}

// giveEntry adds entry e as evidence at lead l's relevance and rank: cut
// to previewTokens (a hit to hitPreviewTokens), marked when a newer entry
// superseded it, and kept for supersede and, when a captured answer cites
// entries, for belowCited.
func (r *evidenceReader) giveEntry(e *dayfiles.Entry, l lead) {
	g := r.g
	r.seen[e.ID] = true
	r.given(e.Day, l.rel)
	if r.groups[e.Day] == "" {
		r.groups[e.Day] = EvidenceGroup(e.Day)
	}
	c := Candidate{ID: e.ID, Part: PartEvidence, Level: string(date.LevelEntry), Date: e.Day, Hit: r.isHit[e.ID],
		Line: e.Line, Group: r.groups[e.Day], Relevance: l.rel, Rank: l.rank}
	most := previewTokens
	if c.Hit {
		most = hitPreviewTokens
	}
	c.Head, c.Cut = EvidenceLineCut(*e, most)
	if by := r.superseded[e.ID]; by != "" {
		c.SupersededBy, c.Head = by, MarkSuperseded(c.Head, by)
	}
	r.tokens += Tokens(c.Head)
	if !g.seen[c.ID] {
		r.stated = append(r.stated, len(g.out.Candidates))
		r.stmts = append(r.stmts, recall.Statement{ID: e.ID, Text: e.Text, Kind: string(e.Kind), Tags: e.Tags, Score: l.rel})
	}
	g.add(c, date.Range{From: e.Day, To: e.Day})
	if ids := entrytext.Cites(e.Text); len(ids) > 0 && dayfiles.Captured(e.Tags) {
		r.cites[e.ID] = ids
	}
}

// supersede finds what recall.Supersede finds among the evidence entries
// at stated (indexes into the candidates, most relevant first), whose
// texts are stmts: the neighbours too, such as a captured agent's answer
// right after a question that was a hit. The newest statement of a
// subject that changed takes the best relevance and rank its subject's
// entries held, the others keep theirs in order after it, the superseded
// last and marked.
func (g *gatherer) supersede(stated []int, stmts []recall.Statement) {
	if g.in.Words == nil {
		return
	}
	order, by := recall.Supersede(g.in.Words, stmts)
	if order == nil {
		return
	}
	cs := g.out.Candidates
	type place struct {
		rel  float64
		rank int
	}
	places := make([]place, len(stated))
	for k, at := range stated {
		places[k] = place{cs[at].Relevance, cs[at].Rank}
	}
	for k, i := range order {
		c := &cs[stated[i]]
		c.Relevance, c.Rank = places[k].rel, places[k].rank
		if b := by[i]; b != "" && c.SupersededBy == "" {
			c.SupersededBy, c.Head = b, MarkSuperseded(c.Head, b)
		}
	}
	for k, at := range stated {
		if c := cs[at]; c.SupersededBy != "" {
			g.stale = append(g.stale, staleEntry{id: c.ID, text: withoutTags(stmts[k].Text), by: c.SupersededBy})
		}
	}
}

// staleEntry is an evidence entry a newer one superseded.
type staleEntry struct{ id, text, by string }

// markStale marks what the other parts repeat of the superseded evidence:
// the entry itself among the recent ones, and its sentence in a summary's
// prose (the offline summaries copy sentences), followed by the mark.
func (g *gatherer) markStale() {
	for _, st := range g.stale {
		for i := range g.out.Candidates {
			c := &g.out.Candidates[i]
			switch {
			case c.Part == PartRecent && c.ID == st.id:
				c.SupersededBy = st.by
				if rest, ok := strings.CutPrefix(c.Head, "- ["+c.ID+"] "); ok {
					c.Head = "- [" + c.ID + "] " + supersededMark + st.by + "]) " + rest
				}
			case c.Part == PartSummaries && len(st.text) >= minStaleText && strings.Contains(c.Body, st.text) && !strings.Contains(c.Body, st.text+" "+supersededMark):
				c.Body = strings.ReplaceAll(c.Body, st.text, st.text+" "+supersededMark+st.by+"])")
			}
		}
	}
}

// belowCited lowers the relevance of each captured answer in the evidence
// that cites evidence entries (an agent's restatement of what it was
// handed) below the least relevant of them: an echo is placed after what
// it restates, never before.
func (g *gatherer) belowCited(cites map[string][]string) {
	if len(cites) == 0 {
		return
	}
	at := map[string]int{}
	for i, c := range g.out.Candidates {
		if c.Part == PartEvidence {
			at[c.ID] = i
		}
	}
	for id, ids := range cites {
		i, ok := at[id]
		if !ok {
			continue
		}
		c := &g.out.Candidates[i]
		for _, cited := range ids {
			if j, ok := at[cited]; ok {
				o := g.out.Candidates[j]
				if c.Relevance >= o.Relevance {
					c.Relevance = math.Nextafter(o.Relevance, 0)
				}
				c.Hit = c.Hit && o.Hit
			}
		}
	}
}

// withoutTags is an entry's text without its #tags.
func withoutTags(t string) string {
	var b strings.Builder
	for _, f := range strings.Fields(t) {
		if strings.HasPrefix(f, "#") && len(f) > 1 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f)
	}
	return b.String()
}

// walk reads entries outward from a hit: entry i of day is the one it
// gives next, the k-th of at most n, going on into the next (step 1) or
// previous (step -1) day's file when there is one: a conversation goes on
// past midnight. A hit's own walk gives just the hit (n 1, step 0).
type walk struct {
	day   *dayfiles.Day
	i     int
	k, n  int
	step  int
	decay float64 // the share of relevance each step keeps
	rel   float64 // of the entry it gives next, before its own factor
	// conv is the conversation of the hit (Conversation): the walk gives
	// only entries of the same one, so that a captured agent session is no
	// neighbour of the person's notes around it, nor they of it.
	conv    string
	skipped int
}

// Conversation is the conversation entry e belongs to
// (dayfiles.Conversation): a captured session's, a chat's, or "" for the
// person's own entries.
func Conversation(e *dayfiles.Entry) string { return dayfiles.Conversation(e.Tags) }

// walks returns the two walks outward from entry at of day, a hit of
// relevance rel: after it and before it.
func (g *gatherer) walks(day *dayfiles.Day, at int, rel float64) []*walk {
	conv := Conversation(&day.Entries[at])
	return []*walk{
		{day: day, i: at, n: neighboursAfter, step: 1, decay: decayAfter, rel: rel, conv: conv},
		{day: day, i: at, n: neighboursBefore, step: -1, decay: decayBefore, rel: rel, conv: conv},
	}
}

// advance moves w onto its next entry of w's conversation; false when
// there is none.
func (g *gatherer) advance(w *walk) bool {
	for g.step(w) {
		if Conversation(&w.day.Entries[w.i]) == w.conv {
			return true
		}
		if w.skipped++; w.skipped > maxSkip {
			return false
		}
	}
	return false
}

// step moves w onto the next entry, whatever its conversation.
func (g *gatherer) step(w *walk) bool {
	if w.step == 0 {
		return false
	}
	w.i += w.step
	for w.i < 0 || w.i >= len(w.day.Entries) {
		d := w.day.Date.AddDays(w.step)
		next, err := g.day(d)
		if err != nil || len(next.Entries) == 0 || next.Date != d {
			return false
		}
		w.day, w.i = next, 0
		if w.step < 0 {
			w.i = len(next.Entries) - 1
		}
	}
	return true
}

// lead is the next item a hit offers: the hit itself, or its walk's next
// neighbour; a free-text note hit is given whole as note.
type lead struct {
	rel  float64
	rank int
	seq  int
	walk *walk
	note *Candidate
}

// leads is a heap of leads, the most relevant first, then by rank, then
// in the order pushed: the order Build places evidence in.
type leads struct {
	s      []lead
	pushed int
}

func (q *leads) Len() int { return len(q.s) }
func (q *leads) Less(i, j int) bool {
	a, b := q.s[i], q.s[j]
	if a.rel != b.rel {
		return a.rel > b.rel
	}
	if a.rank != b.rank {
		return a.rank < b.rank
	}
	return a.seq < b.seq
}
func (q *leads) Swap(i, j int) { q.s[i], q.s[j] = q.s[j], q.s[i] }
func (q *leads) Push(x any)    { q.s = append(q.s, x.(lead)) }
func (q *leads) Pop() any {
	l := q.s[len(q.s)-1]
	q.s = q.s[:len(q.s)-1]
	return l
}

func (q *leads) push(l lead) {
	l.seq, q.pushed = q.pushed, q.pushed+1
	heap.Push(q, l)
}

func (q *leads) pop() lead { return heap.Pop(q).(lead) }

// own is the share of its relevance entry e keeps as a neighbour: 1, or
// otherSpeaker when the query names a speaker of the hits but not e's.
func (g *gatherer) own(e *dayfiles.Entry) float64 {
	if !g.named {
		return 1
	}
	if name, _, ok := consolidate.SpeakerPrefix(e.Text); !ok || g.namesSpeaker(name) {
		return 1
	}
	return otherSpeaker
}

// names reports whether e is a message ("Name: text") of a speaker the
// query names.
func (g *gatherer) names(e *dayfiles.Entry) bool {
	name, _, ok := consolidate.SpeakerPrefix(e.Text)
	return ok && g.namesSpeaker(name)
}

// namesSpeaker reports whether the query names the speaker name.
func (g *gatherer) namesSpeaker(name string) bool {
	if g.in.Words == nil {
		return false
	}
	named, ok := g.speakers[name]
	if !ok {
		named = len(g.in.Words.Find([]string{name})[0]) > 0
		g.speakers[name] = named
	}
	return named
}
