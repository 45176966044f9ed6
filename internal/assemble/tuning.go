package assemble

// The context block's tuning, in one place. Each constant says what it
// tunes and what chose its value. "REALTALK" is `daybook eval --dialogue
// PATH --context` on ten real chats: the share of questions with an
// evidence message in the block at 1,000 / 2,000 / 4,000 tokens ("any",
// docs/context.md has the tables); a change here is kept only when it
// loses at no budget. The token estimate (CharsPerToken) is a measure, not
// a tuning, and stays in tokens.go; how many hits a context recalls for
// its evidence (one per 100 tokens, 10 to 100) is the caller's, in package
// app (hitsFor).

// Evidence: what answers a query, read outward from its hits.

// EvidenceShare is the share of what the foundation leaves that evidence
// (the entries that answer a query, with their neighbours) may take first;
// the summaries that frame it take the rest, and recent entries only what
// those leave. REALTALK: 90 % moved no budget by more than 0.5, as the
// summaries are not what crowds the evidence out.
const EvidenceShare = 0.8

// relevancePower sharpens a hit's relevance (its score over the best's):
// the neighbours of the best days' hits come before the lone hits of days
// that scored far below. REALTALK: the power 1 gave 71.6 / 78.6 / 85.6 and
// 4 gave 70.3 / 79.3 / 85.9, both below 2; 1.5, on the block of today, was
// within 1 of 2, up at one budget and down at another.
const relevancePower = 2

// Neighbours of an evidence entry in its day file (and on into the next
// or previous day's), and how much of the entry's relevance each keeps: an
// entry k after a hit keeps decayAfter^k of it, k before decayBefore^k (a
// message's replies come after it, what it answers before it), so that
// the best days are read outward from their hits as far as the budget goes.
// REALTALK: 2 after and 1 before at 0.5^k / 0.4^k gave 64.1 / 70.1 / 78.6,
// 5 and 3 gave 65.1 / 71.6 / 80.3 (the answer is seldom the very next
// message in a chat); 0.8^k / 0.75^k, later, was within 1 of these.
const (
	neighboursAfter  = 40
	neighboursBefore = 40
	decayAfter       = 0.85
	decayBefore      = 0.8
)

// maxSkip bounds the entries of other conversations a walk (or the word
// matches' look around a hit) steps over to reach the next entry of its
// own: a captured agent session's turns between a person's notes, or the
// notes around a session. It is a bound on the work, ten times the
// neighbours either way, not a tuned value.
const maxSkip = 400

// previewTokens is the most tokens of a neighbour's text: a longer one is
// cut at a word, marked " …", and its line expands to it whole.
// hitPreviewTokens is a hit's: twice as much, since it is what matched,
// but a long message's opening says what it is about, and the tokens a
// long hit would take read further around the hits. REALTALK: neighbours
// cut at a sentence to 40 tokens gave 71.6 / 78.6 / 85.6 (a sentence cut
// drops the message's words), at a word to 24 gave 73.0 / 79.3 / 85.2 (too
// few); hits whole 76.1 / 82.2 / 90.1 against 76.3 / 83.0 / 90.5 cut.
const (
	previewTokens    = 30
	hitPreviewTokens = 2 * previewTokens
)

// evidenceRead is how many times the budget the evidence candidates may
// take, the most relevant first: Build places them in that order while
// they fit, so that those past it could fill only the gaps left by longer
// ones skipped, never more than the budget.
const evidenceRead = 2

// otherSpeaker is the share of its relevance a neighbour keeps when it is
// a message of a speaker the query does not name, and the query names a
// speaker of the hits: a question about Elise ("what does Elise do in her
// free time?") is answered in Elise's own words, or in what she answers,
// more often than in the other side's. Entries that are not messages
// ("Name: text"), and queries that name no speaker, keep it all.
// REALTALK: without it 75.3 / 82.0 / 88.9; 0.3 or 0.7 were within 0.5 of
// half either way, and half is kept as the plain choice.
const otherSpeaker = 0.5

// minStaleText is the fewest bytes of a superseded entry's text (its tags
// left out) that markStale looks for in a summary's prose: a shorter text
// ("Yes.", "OK then") is no fact, and would mark every summary that
// happens to hold it.
const minStaleText = 12

// Summaries: what frames the evidence, or stands for the periods without it.

// framingDays is how many of the evidence's days (the best first) have
// their summaries placed before the years and months; the others' come
// with the last days' daily summaries. REALTALK: every evidence day's
// summary ahead of the years (73.7 / 80.2 / 87.5; five days: 73.4 / 79.5 /
// 87.4) was not kept: the year's summary no longer fit a 4,000-token
// block, where it stood for 8× its tokens of day files.
const framingDays = 3

// How far back a context looks for summaries without a query's hits: the
// daily summaries of the last recentDailies days, the monthly ones of this
// year and of the last recentMonths months, and every yearly one.
const (
	recentDailies = RecentDays
	recentMonths  = 3
)

// A summary item takes at most a twelfth (1/itemCapParts) of its part,
// between itemCapMin and itemCapMax tokens (see ItemCap), so that several
// periods share the part; a longer body is cut at a sentence, and its id
// expands to the whole summary. A body cut below minBody tokens is left
// out instead: so little of a summary says nothing.
const (
	itemCapParts = 12
	itemCapMin   = 48
	itemCapMax   = 800
	minBody      = 16
)

// topicsShown is how many tags and how many people a summary item names
// on its Topics line.
const topicsShown = 6

// Recent entries: the latest, verbatim.

// RecentDays is how far back "recent" reaches: the daily summaries of a
// context, and the evidence that makes the latest entries worth giving
// beside it (a query about last March needs no entries from this morning).
const RecentDays = 14

// The recent part reads the latest entries, newest first, until they
// would fill recentRead times its budget (Build places the newest that
// fit), or maxRecentEntries are read, or maxRecentScanned are scanned
// (captured turns past their share are scanned, not read).
const (
	recentRead       = 2
	maxRecentEntries = 400
	maxRecentScanned = 20000
)

// How captured agent sessions and chats share the recent part: each its
// last recentTurns turns, all of them at most 1/recentCapturedShare of the
// budget, placed after the person's own entries: an agent's busy day is
// not the person's recent days.
const (
	recentTurns         = 2
	recentCapturedShare = 4
)

// The memory utility score: what fits when not everything does.

// The memory utility score ranks what goes into a context when not
// everything fits (within a tier of the summaries, and among recent
// entries; evidence goes by its relevance alone): the weights of its three
// parts, each normalised to 0..1. They are as the first context block set
// them, relevance and use alike and recency half as much; no eval has
// tried others (the evidence, which REALTALK measures, is placed by its
// relevance alone).
const (
	WeightFrequency = 0.4 // how often recall and expand returned the item
	WeightRelevance = 0.4 // how well it matches the query
	WeightRecency   = 0.2 // how recent the last day it covers is
)

// HalfLifeDays is the age in days at which recency falls to one half.
const HalfLifeDays = 90
