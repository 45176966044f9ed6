// Package assemble builds the context block an agent reads at the start of
// a session: the foundation (foundation.md, always whole); for a query with
// words of its own, the evidence (the drill's entry hits with their
// neighbouring entries, by day, each line cited by its line in its file);
// then memory summaries from the top of the pyramid down (the evidence's
// days first, or the drill's hits); then the latest entries verbatim,
// newest last (with evidence, only in what is left and only when the
// evidence is recent), all within a token budget. Every item carries the id
// that "daybook expand" takes, or its line under its day.
//
// Gather reads the candidates from the data dir (summaries, day files, and
// the drill's hits the caller recalled); the caller (package app) adds the
// use counts. Build is pure: it places the evidence by its relevance,
// chooses among the rest by the memory utility score (see Utility) and
// renders the block. Nothing is deleted or rewritten by this: the scores
// only order what is left out.
package assemble

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
)

// Part names a section of the block.
type Part string

// The parts, in the order of the block.
const (
	PartFoundation Part = "foundation"
	PartEvidence   Part = "evidence"
	PartSummaries  Part = "summaries"
	PartRecent     Part = "recent"
)

// Section headings.
const (
	headFoundation = "## Foundation\n\n"
	headEvidence   = "\n## Evidence\n\nDay-file lines; :15 is line 15, \"daybook expand DATE:L15\" gives it whole.\n\n"
	headSummaries  = "\n## Memory summaries\n\n" // the "\n" is dropped after a blank line
	headRecent     = "\n## Recent\n\n"
	// noteChanged heads the evidence when some of it was superseded.
	noteChanged = "Changed facts: the newest statement comes first; a line marked (superseded by [ID]) states an older value that entry changed.\n\n"
)

// Candidate is an item that may go into the block.
type Candidate struct {
	ID    string
	Part  Part   // PartSummaries or PartRecent
	Level string // year, month, day, entry, line
	// Head is the item's first line(s), never cut: a summary's heading with
	// its id, or an entry verbatim.
	Head string
	// Body may be cut to fit (a summary's prose); "" for entries.
	Body string
	// Date is the last day the item covers: its recency.
	Date date.Date
	// Uses is how often recall or expand returned it.
	Uses int
	// Relevance to the query, 0..1: the drill's score over the best score.
	Relevance float64
	// Hit marks a drill hit: shown first in its part, in Rank order.
	Hit bool
	// Tier orders the pyramid top-down within a part: what is placed is
	// chosen tier by tier (0 first), and by utility within a tier. Gather
	// gives hits 0, years 1, months 2, days 3; recent entries are all 0.
	Tier int
	// Rank orders items within their part: hits by the drill's rank, the
	// rest in pyramid order (years, months, days, oldest first) or, for
	// recent entries, oldest first. Evidence is placed by Relevance, then
	// Rank, and shown by Group, then Line.
	Rank int
	// Group is the heading an evidence item is shown under (its day and
	// file), given once before the first item of the group placed; Line
	// orders the group (the item's line in its file).
	Group string
	Line  int
	// Cut: Head is the item cut to fit (a long neighbour among the
	// evidence); its id gives it whole.
	Cut bool
	// SupersededBy is the id of the newer entry that changed what this
	// evidence states (recall.Supersede); its Head says so.
	SupersededBy string
}

// WantsRecent reports whether a block whose best evidence is from day best
// gives the latest entries too: when best is within RecentDays of today (a
// query about last March needs no entries from this morning).
func WantsRecent(best, today date.Date) bool {
	return !today.IsZero() && daysBetween(best, today) <= RecentDays
}

// Input is everything Build needs.
type Input struct {
	Title        string // the block's first line(s), e.g. "# Context 2026-03-10"
	Foundation   string // foundation.md; "" when there is none
	Budget       int    // tokens
	SummaryShare float64
	RecentShare  float64
	Today        date.Date
	Candidates   []Candidate
}

// Placed is a candidate that went into the block.
type Placed struct {
	Index     int // into Input.Candidates; -1 for the foundation
	Tokens    int
	Utility   float64
	Truncated bool // its body was cut; expand gives it whole
}

// Result is the block and how the budget was spent.
type Result struct {
	Markdown string
	Tokens   int // Tokens(Markdown): at most Budget unless the foundation alone is over it
	Placed   []Placed
	Omitted  int
	Warnings []string
}

// ItemCap is the most tokens one summary item may take in a part of
// partBudget tokens: a twelfth of it, between 48 and 800 (itemCapParts,
// itemCapMin, itemCapMax), so that several periods share the part. A longer
// body is cut at a sentence; its id expands to the whole summary.
func ItemCap(partBudget int) int {
	return min(max(partBudget/itemCapParts, itemCapMin), itemCapMax)
}

// scored is a candidate (its index into Input.Candidates) with its memory
// utility score.
type scored struct {
	i       int
	utility float64
}

// Build chooses and renders the block.
func Build(in Input) Result {
	if in.Budget < 1 {
		in.Budget = 1
	}
	b := &builder{in: in, chosen: map[int]Placed{}, pieces: map[int]string{}, used: map[Part]int{}, groups: map[string]bool{}}
	if !b.start() {
		return b.res
	}
	b.score()
	b.choose()
	b.writeEvidence()
	b.writeParts()
	b.res.Omitted = len(in.Candidates) - len(b.chosen)
	b.res.Markdown = strings.TrimRight(b.w.String(), "\n") + "\n"
	b.res.Tokens = Tokens(b.res.Markdown)
	return b.res
}

// builder is the state of one Build: the block written so far, each
// candidate's utility, the candidates of each part in the order they are
// placed, and what was chosen.
type builder struct {
	in  Input
	res Result
	w   blockWriter
	// util is each candidate's utility; byPart the candidates of each part,
	// in the order they are offered a place (see score).
	util   []float64
	byPart map[Part][]scored
	// chosen and pieces are the candidates placed, by index, and their
	// rendered text; used is the tokens each part took, headings included.
	chosen map[int]Placed
	pieces map[int]string
	used   map[Part]int
	// groups are the evidence groups placed; changed says a superseded item
	// was placed, so noteChanged heads the evidence.
	groups  map[string]bool
	changed bool
}

// start writes the title and the foundation; false when nothing else fits
// (the res says why, and is the whole result).
func (b *builder) start() bool {
	in := b.in
	title := strings.TrimRight(in.Title, "\n") + "\n\n"
	if Tokens(title) > in.Budget && in.Foundation == "" {
		b.res.Warnings = append(b.res.Warnings, fmt.Sprintf("the budget of %d tokens is too small for anything; nothing was placed", in.Budget))
		b.res.Omitted = len(in.Candidates)
		return false
	}
	b.w.add(title)
	if in.Foundation == "" {
		return true
	}
	f := strings.TrimRight(in.Foundation, "\n") + "\n\n"
	need := Tokens(headFoundation) + Tokens(f)
	if b.w.tokens+need > in.Budget {
		w := fmt.Sprintf("foundation.md alone is %d tokens, over the budget of %d: it is given whole and nothing else fits; raise the budget or shorten foundation.md", Tokens(f), in.Budget)
		b.res.Warnings = append(b.res.Warnings, w)
		b.w.add(headFoundation)
		b.w.add("> Warning: " + w + ".\n\n")
		b.w.add(f)
		b.res.Placed = append(b.res.Placed, Placed{Index: -1, Tokens: Tokens(f)})
		b.res.Omitted = len(in.Candidates)
		b.res.Markdown, b.res.Tokens = b.w.String(), Tokens(b.w.String())
		return false
	}
	b.w.add(headFoundation)
	b.w.add(f)
	b.res.Placed = append(b.res.Placed, Placed{Index: -1, Tokens: Tokens(f)})
	return true
}

// score gives every candidate its utility and orders each part's
// candidates as they are offered a place: the evidence by relevance, the
// others tier by tier, by utility within a tier.
func (b *builder) score() {
	cs := b.in.Candidates
	maxUses := 0
	for _, c := range cs {
		maxUses = max(maxUses, c.Uses)
	}
	b.util = make([]float64, len(cs))
	b.byPart = map[Part][]scored{}
	for i, c := range cs {
		age := 0
		if !c.Date.IsZero() && !b.in.Today.IsZero() {
			age = daysBetween(c.Date, b.in.Today)
		}
		b.util[i] = Utility(Frequency(c.Uses, maxUses), c.Relevance, Recency(age))
		b.byPart[c.Part] = append(b.byPart[c.Part], scored{i, b.util[i]})
	}
	for p, list := range b.byPart {
		if p == PartEvidence {
			slices.SortStableFunc(list, b.evidenceOrder)
		} else {
			slices.SortStableFunc(list, b.offerOrder)
		}
	}
}

// evidenceOrder is the order evidence is offered a place in: the most
// relevant first, then by Rank.
func (b *builder) evidenceOrder(x, y scored) int {
	cx, cy := b.in.Candidates[x.i], b.in.Candidates[y.i]
	if c := cmp.Compare(cy.Relevance, cx.Relevance); c != 0 {
		return c
	}
	return cmp.Compare(cx.Rank, cy.Rank)
}

// offerOrder is the order summaries and recent entries are offered a
// place in: by Tier, then the most useful first, then hits by the drill's
// rank before the rest, newest first.
func (b *builder) offerOrder(x, y scored) int {
	cx, cy := b.in.Candidates[x.i], b.in.Candidates[y.i]
	if c := cmp.Compare(cx.Tier, cy.Tier); c != 0 {
		return c
	}
	if c := cmp.Compare(y.utility, x.utility); c != 0 {
		return c
	}
	if cx.Hit != cy.Hit {
		if cx.Hit {
			return -1
		}
		return 1
	}
	if cx.Hit {
		return cmp.Compare(cx.Rank, cy.Rank)
	}
	return cmp.Compare(cy.Rank, cx.Rank) // later (newer) first
}

// choose shares out what the foundation left among the parts and chooses
// what each places. With evidence: the evidence first (EvidenceShare of
// it), the summaries that frame it, then more evidence, and recent entries
// only in what is left, and only when the evidence is recent. Without:
// the summaries their share, recent entries the rest, then summaries what
// recent left over.
func (b *builder) choose() {
	rest := b.in.Budget - b.w.tokens // what the title and foundation left
	ss, rs := max(b.in.SummaryShare, 0), max(b.in.RecentShare, 0)
	if ss+rs <= 0 {
		ss, rs = 1, 1
	}
	sumBudget := int(float64(rest) * ss / (ss + rs))
	if ev := b.byPart[PartEvidence]; len(ev) > 0 {
		b.fillEvidence(int(float64(rest) * EvidenceShare))
		sumBudget = rest - b.used[PartEvidence]
		b.fill(PartSummaries, sumBudget, sumBudget)
		b.fillEvidence(rest - b.used[PartEvidence] - b.used[PartSummaries])
		if best := b.in.Candidates[ev[0].i]; WantsRecent(best.Date, b.in.Today) {
			// The query is about these days: what was said since may matter.
			left := rest - b.used[PartEvidence] - b.used[PartSummaries]
			b.fill(PartRecent, left, left)
		}
		return
	}
	b.fill(PartSummaries, sumBudget, sumBudget)
	recBudget := rest - b.used[PartSummaries]
	b.fill(PartRecent, recBudget, rest-sumBudget)
	if left := rest - b.used[PartSummaries] - b.used[PartRecent]; left > 0 {
		b.fill(PartSummaries, left, sumBudget) // what recent left over
	}
}

// fill places the candidates of part p (summaries or recent entries) in
// their order while they fit in budget tokens, each cut to at most the
// ItemCap of capBudget; the part's heading counts with its first item.
func (b *builder) fill(p Part, budget, capBudget int) {
	head := headSummaries
	if p == PartRecent {
		head = headRecent
	}
	itemCap := ItemCap(capBudget)
	left := budget
	for _, s := range b.byPart[p] {
		if _, ok := b.chosen[s.i]; ok {
			continue
		}
		c := b.in.Candidates[s.i]
		extra := 0
		if b.used[p] == 0 {
			extra = Tokens(head)
		}
		piece, truncated, ok := render(c, min(itemCap, left-extra))
		if !ok {
			continue
		}
		cost := Tokens(piece) + extra
		if cost > left {
			continue
		}
		left -= cost
		b.used[p] += cost
		b.chosen[s.i] = Placed{Index: s.i, Tokens: Tokens(piece), Utility: b.util[s.i], Truncated: truncated}
		b.pieces[s.i] = piece
	}
}

// fillEvidence places evidence in its order while it fits in budget
// tokens, with the headings it brings: the part's, its group's and, for a
// superseded item, noteChanged.
func (b *builder) fillEvidence(budget int) {
	left := budget
	for _, s := range b.byPart[PartEvidence] {
		if _, ok := b.chosen[s.i]; ok {
			continue
		}
		c := b.in.Candidates[s.i]
		piece := strings.TrimRight(c.Head, "\n") + "\n"
		cost := Tokens(piece)
		if b.used[PartEvidence] == 0 {
			cost += Tokens(headEvidence)
		}
		if !b.groups[c.Group] && c.Group != "" {
			cost += Tokens(groupHead(c.Group))
		}
		if c.SupersededBy != "" && !b.changed {
			cost += Tokens(noteChanged)
		}
		if cost > left {
			continue
		}
		left -= cost
		b.used[PartEvidence] += cost
		b.groups[c.Group] = true
		b.changed = b.changed || c.SupersededBy != ""
		b.chosen[s.i] = Placed{Index: s.i, Tokens: Tokens(piece), Utility: b.util[s.i], Truncated: c.Cut}
		b.pieces[s.i] = piece
	}
}

// writeEvidence writes the evidence chosen by group, the groups in the
// order of their best item, each in line order.
func (b *builder) writeEvidence() {
	ev := b.byPart[PartEvidence]
	if len(b.chosen) == 0 || len(ev) == 0 {
		return
	}
	cs := b.in.Candidates
	order := map[string]int{}
	var idx []int
	for k, s := range ev {
		if _, ok := b.chosen[s.i]; !ok {
			continue
		}
		if _, ok := order[cs[s.i].Group]; !ok {
			order[cs[s.i].Group] = k
		}
		idx = append(idx, s.i)
	}
	slices.SortFunc(idx, func(x, y int) int {
		cx, cy := cs[x], cs[y]
		if c := cmp.Compare(order[cx.Group], order[cy.Group]); c != 0 {
			return c
		}
		return cmp.Compare(cx.Line, cy.Line)
	})
	if len(idx) > 0 {
		b.w.addSection(headEvidence)
		if b.changed {
			b.w.add(noteChanged)
		}
	}
	group := ""
	for k, i := range idx {
		if g := cs[i].Group; g != "" && (k == 0 || g != group) {
			b.w.add(groupHead(g))
			group = g
		}
		b.w.add(b.pieces[i])
		b.res.Placed = append(b.res.Placed, b.chosen[i])
	}
}

// writeParts writes the summaries and recent entries chosen, part by
// part: hits first, by the drill's rank, then the rest in Rank order.
func (b *builder) writeParts() {
	cs := b.in.Candidates
	for _, p := range []Part{PartSummaries, PartRecent} {
		var idx []int
		for i := range b.chosen {
			if cs[i].Part == p {
				idx = append(idx, i)
			}
		}
		if len(idx) == 0 {
			continue
		}
		slices.SortFunc(idx, func(x, y int) int {
			cx, cy := cs[x], cs[y]
			if cx.Hit != cy.Hit {
				if cx.Hit {
					return -1
				}
				return 1
			}
			return cmp.Compare(cx.Rank, cy.Rank)
		})
		if p == PartSummaries {
			b.w.addSection(headSummaries)
		} else {
			b.w.addSection(headRecent)
		}
		for _, i := range idx {
			b.w.add(b.pieces[i])
			b.res.Placed = append(b.res.Placed, b.chosen[i])
		}
	}
}

// groupHead is the heading of an evidence group.
func groupHead(g string) string { return "### " + g + "\n" }

// render returns the piece of c within max tokens: its head whole and its
// body cut to fit; ok is false when the head alone is over max, or the body
// would be cut below minBody tokens.
func render(c Candidate, max int) (piece string, truncated, ok bool) {
	head := strings.TrimRight(c.Head, "\n") + "\n"
	if c.Body == "" {
		if c.Part == PartSummaries {
			head += "\n" // a hit among summaries stands apart from the next heading
		}
		return head, false, Tokens(head) <= max // recent entries follow one another
	}
	whole := head + c.Body + "\n\n"
	if Tokens(whole) <= max {
		return whole, false, true
	}
	room := max - Tokens(head) - 1 // the blank line after the body
	if room < minBody {
		return "", false, false
	}
	body, _, ok := Cut(c.Body, room)
	if !ok {
		return "", false, false
	}
	piece = head + body + "\n\n"
	return piece, true, Tokens(piece) <= max
}

// blockWriter joins pieces and keeps the sum of their estimates, which is
// never below the estimate of the whole.
type blockWriter struct {
	strings.Builder
	tokens int
}

func (b *blockWriter) add(s string) {
	b.WriteString(s)
	b.tokens += Tokens(s)
}

// daysBetween returns the days from a to b.
func daysBetween(a, b date.Date) int {
	ta, tb := a.In(time.UTC), b.In(time.UTC)
	return int(tb.Sub(ta).Hours() / 24)
}

// addSection adds a section heading, without its leading newline when the
// block already ends with a blank line.
func (b *blockWriter) addSection(head string) {
	if strings.HasSuffix(b.String(), "\n\n") {
		head = head[1:]
	}
	b.add(head)
}
