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

// RecentDays is how far back "recent" reaches: the daily summaries of a
// context, and the evidence that makes the latest entries worth giving
// beside it (a query about last March needs no entries from this morning).
const RecentDays = 14

// WantsRecent reports whether a block whose best evidence is from day best
// gives the latest entries too: when best is within RecentDays of today (a
// query about last March needs no entries from this morning).
func WantsRecent(best, today date.Date) bool {
	return !today.IsZero() && daysBetween(best, today) <= RecentDays
}

// EvidenceShare is the share of what the foundation leaves that evidence
// (the entries that answer a query, with their neighbours) may take first;
// the summaries that frame it take the rest, and recent entries only what
// those leave.
const EvidenceShare = 0.8

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

// minBody is the fewest tokens of a cut body worth giving.
const minBody = 16

// ItemCap is the most tokens one summary item may take in a part of
// partBudget tokens: a twelfth of it, between 48 and 800, so that several
// periods share the part. A longer body is cut at a sentence; its id expands
// to the whole summary.
func ItemCap(partBudget int) int { return min(max(partBudget/12, 48), 800) }

type scored struct {
	i       int
	utility float64
}

// Build chooses and renders the block.
func Build(in Input) Result {
	var res Result
	var b blockWriter
	if in.Budget < 1 {
		in.Budget = 1
	}
	title := strings.TrimRight(in.Title, "\n") + "\n\n"
	if Tokens(title) > in.Budget && in.Foundation == "" {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the budget of %d tokens is too small for anything; nothing was placed", in.Budget))
		res.Omitted = len(in.Candidates)
		return res
	}
	b.add(title)

	if in.Foundation != "" {
		f := strings.TrimRight(in.Foundation, "\n") + "\n\n"
		need := Tokens(headFoundation) + Tokens(f)
		if b.tokens+need > in.Budget {
			w := fmt.Sprintf("foundation.md alone is %d tokens, over the budget of %d: it is given whole and nothing else fits; raise the budget or shorten foundation.md", Tokens(f), in.Budget)
			res.Warnings = append(res.Warnings, w)
			b.add(headFoundation)
			b.add("> Warning: " + w + ".\n\n")
			b.add(f)
			res.Placed = append(res.Placed, Placed{Index: -1, Tokens: Tokens(f)})
			res.Omitted = len(in.Candidates)
			res.Markdown, res.Tokens = b.String(), Tokens(b.String())
			return res
		}
		b.add(headFoundation)
		b.add(f)
		res.Placed = append(res.Placed, Placed{Index: -1, Tokens: Tokens(f)})
	}

	// Score every candidate.
	maxUses := 0
	for _, c := range in.Candidates {
		maxUses = max(maxUses, c.Uses)
	}
	util := make([]float64, len(in.Candidates))
	byPart := map[Part][]scored{}
	for i, c := range in.Candidates {
		age := 0
		if !c.Date.IsZero() && !in.Today.IsZero() {
			age = daysBetween(c.Date, in.Today)
		}
		util[i] = Utility(Frequency(c.Uses, maxUses), c.Relevance, Recency(age))
		byPart[c.Part] = append(byPart[c.Part], scored{i, util[i]})
	}
	for p, list := range byPart {
		if p == PartEvidence {
			slices.SortStableFunc(list, func(a, b scored) int {
				ca, cb := in.Candidates[a.i], in.Candidates[b.i]
				if c := cmp.Compare(cb.Relevance, ca.Relevance); c != 0 {
					return c
				}
				return cmp.Compare(ca.Rank, cb.Rank)
			})
			continue
		}
		slices.SortStableFunc(list, func(a, b scored) int {
			if c := cmp.Compare(in.Candidates[a.i].Tier, in.Candidates[b.i].Tier); c != 0 {
				return c
			}
			if c := cmp.Compare(b.utility, a.utility); c != 0 {
				return c
			}
			ca, cb := in.Candidates[a.i], in.Candidates[b.i]
			if ca.Hit != cb.Hit {
				if ca.Hit {
					return -1
				}
				return 1
			}
			if ca.Hit {
				return cmp.Compare(ca.Rank, cb.Rank)
			}
			return cmp.Compare(cb.Rank, ca.Rank) // later (newer) first
		})
	}

	// Share out what the foundation left.
	rest := in.Budget - b.tokens
	ss, rs := max(in.SummaryShare, 0), max(in.RecentShare, 0)
	if ss+rs <= 0 {
		ss, rs = 1, 1
	}
	sumBudget := int(float64(rest) * ss / (ss + rs))
	chosen := map[int]Placed{}
	pieces := map[int]string{}
	used := map[Part]int{}
	fill := func(p Part, budget, capBudget int) {
		head := headSummaries
		if p == PartRecent {
			head = headRecent
		}
		itemCap := ItemCap(capBudget)
		left := budget
		for _, s := range byPart[p] {
			if _, ok := chosen[s.i]; ok {
				continue
			}
			c := in.Candidates[s.i]
			extra := 0
			if used[p] == 0 {
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
			used[p] += cost
			chosen[s.i] = Placed{Index: s.i, Tokens: Tokens(piece), Utility: util[s.i], Truncated: truncated}
			pieces[s.i] = piece
		}
	}
	groups := map[string]bool{} // evidence groups placed
	changed := false            // a superseded item placed: noteChanged heads the evidence
	fillEvidence := func(budget int) {
		left := budget
		for _, s := range byPart[PartEvidence] {
			if _, ok := chosen[s.i]; ok {
				continue
			}
			c := in.Candidates[s.i]
			piece := strings.TrimRight(c.Head, "\n") + "\n"
			cost := Tokens(piece)
			if used[PartEvidence] == 0 {
				cost += Tokens(headEvidence)
			}
			if !groups[c.Group] && c.Group != "" {
				cost += Tokens(groupHead(c.Group))
			}
			if c.SupersededBy != "" && !changed {
				cost += Tokens(noteChanged)
			}
			if cost > left {
				continue
			}
			left -= cost
			used[PartEvidence] += cost
			groups[c.Group] = true
			changed = changed || c.SupersededBy != ""
			chosen[s.i] = Placed{Index: s.i, Tokens: Tokens(piece), Utility: util[s.i], Truncated: c.Cut}
			pieces[s.i] = piece
		}
	}
	if len(byPart[PartEvidence]) > 0 {
		// A query with hits: the evidence first, the summaries that frame
		// it, then more evidence, and recent entries only in what is left.
		fillEvidence(int(float64(rest) * EvidenceShare))
		sumBudget = rest - used[PartEvidence]
		fill(PartSummaries, sumBudget, sumBudget)
		fillEvidence(rest - used[PartEvidence] - used[PartSummaries])
		if best := in.Candidates[byPart[PartEvidence][0].i]; WantsRecent(best.Date, in.Today) {
			// The query is about these days: what was said since may matter.
			left := rest - used[PartEvidence] - used[PartSummaries]
			fill(PartRecent, left, left)
		}
	} else {
		fill(PartSummaries, sumBudget, sumBudget)
		recBudget := rest - used[PartSummaries]
		fill(PartRecent, recBudget, rest-sumBudget)
		if left := rest - used[PartSummaries] - used[PartRecent]; left > 0 {
			fill(PartSummaries, left, sumBudget) // what recent left over
		}
	}

	// The evidence by group, the groups in the order of their best item,
	// each in line order.
	if ev := byPart[PartEvidence]; len(chosen) > 0 && len(ev) > 0 {
		order := map[string]int{}
		var idx []int
		for k, s := range ev {
			if _, ok := chosen[s.i]; !ok {
				continue
			}
			if _, ok := order[in.Candidates[s.i].Group]; !ok {
				order[in.Candidates[s.i].Group] = k
			}
			idx = append(idx, s.i)
		}
		slices.SortFunc(idx, func(a, b int) int {
			ca, cb := in.Candidates[a], in.Candidates[b]
			if c := cmp.Compare(order[ca.Group], order[cb.Group]); c != 0 {
				return c
			}
			return cmp.Compare(ca.Line, cb.Line)
		})
		if len(idx) > 0 {
			b.addSection(headEvidence)
			if changed {
				b.add(noteChanged)
			}
		}
		group := ""
		for k, i := range idx {
			if g := in.Candidates[i].Group; g != "" && (k == 0 || g != group) {
				b.add(groupHead(g))
				group = g
			}
			b.add(pieces[i])
			res.Placed = append(res.Placed, chosen[i])
		}
	}

	// Render the chosen items part by part, in Rank order.
	for _, p := range []Part{PartSummaries, PartRecent} {
		var idx []int
		for i := range chosen {
			if in.Candidates[i].Part == p {
				idx = append(idx, i)
			}
		}
		if len(idx) == 0 {
			continue
		}
		slices.SortFunc(idx, func(a, b int) int {
			ca, cb := in.Candidates[a], in.Candidates[b]
			if ca.Hit != cb.Hit {
				if ca.Hit {
					return -1
				}
				return 1
			}
			return cmp.Compare(ca.Rank, cb.Rank)
		})
		if p == PartSummaries {
			b.addSection(headSummaries)
		} else {
			b.addSection(headRecent)
		}
		for _, i := range idx {
			b.add(pieces[i])
			res.Placed = append(res.Placed, chosen[i])
		}
	}
	res.Omitted = len(in.Candidates) - len(chosen)
	res.Markdown = strings.TrimRight(b.String(), "\n") + "\n"
	res.Tokens = Tokens(res.Markdown)
	return res
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
