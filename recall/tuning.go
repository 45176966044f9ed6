package recall

// Recall's tuning, in one place. Each constant says what it weighs and what
// chose it. "REALTALK" is `daybook eval --dialogue` on ten real chats,
// "hand-written" and "planted" the two question sets of
// internal/tooling/eval (BENCHMARKS.md gives the commands); a change here is
// kept only when none of the three loses (docs/decisions/).

// The drill's fan-out: how many of each level it keeps inside each parent.
// Set with the first drill on generated years (a day outside the global top 5
// is still found inside its month: TestDrillFindsADayOutsideTheGlobalTopFive);
// the best entries of the whole range compete beside them, so a narrow
// fan-out costs little.
const (
	topYears  = 3
	topMonths = 3
	topDays   = 5
)

// firstLevelWiden multiplies the fan-out of the level the drill starts at
// below years (it is searched whole, not inside parents).
const firstLevelWiden = 3

// The best entries of the whole range by BM25, searched beside the drill:
// starEntriesPerResult × limit, at least starEntriesMin. Summaries leave rare
// words out; without this group the drill found 5 of 10 planted facts where
// flat BM25 found 10. 200 or 400 instead of 100 did not move REALTALK.
const (
	starEntriesPerResult = 10
	starEntriesMin       = 100
)

// The best day summaries of the whole range, searched beside those inside the
// chosen months (BM25 on their keywords): starDaysPerResult × limit, at least
// starDaysMin. A day the months missed still counts as evidence.
const (
	starDaysPerResult = 30
	starDaysMin       = 300
)

// maxOrphans caps the unsummarised parents (today, this month) searched as
// one group at a level.
const maxOrphans = 400

// minCosine is the least cosine that counts as similar when BM25 found
// nothing: below it a vector hit of the offline embedder is noise.
const minCosine = 0.12

// sumBM25Weight is BM25's share of the fused similarity (FuseSum), the cosine
// taking the rest: sum beat reciprocal-rank fusion on planted facts (10/10
// against 7/10; docs/decisions/fusion-sum.md).
const sumBM25Weight = 0.5

// rrfK is the constant of reciprocal-rank fusion (FuseRRF), the usual 60.
const rrfK = 60

// Weights of a day's score parts; they add up to 1. REALTALK: a summary
// weight of 0.5 gave hit@1 56.2 against 60.9 (docs/decisions/day-score.md).
const (
	wEntries = 0.7
	wSummary = 0.3
)

// Shares of a day's second and third best entries in its entry evidence
// (its best counts whole). REALTALK: the squares of their shares instead gave
// 61.6 hit@1 and hand-written 0.859.
const (
	share2 = 0.5
	share3 = 0.25
)

// spillWeight is the weight of the day after a temporal phrase's range of a
// week or less: what happened on a day is often written the next morning,
// but the day named comes first when both say as much (REALTALK date
// questions; the day before as well lost hit@1: plans are fewer than recaps).
const spillWeight = 0.8

// linearFillShare scales the linear scan's hits that fill up after the
// drill's: the first gets half the drill's last score, the next a third...,
// so they always follow the drill's.
const linearFillShare = 0.5

// outsideStep keeps results from outside a phrase's range in order below
// those inside it: each is at most this share of the one before.
const outsideStep = 0.999

// linearAllTermsBonus multiplies a linear-scan line's score when it holds
// every term of a query of several words.
const linearAllTermsBonus = 1.5

// capturedShortlist divides an entry search's shortlist for what the loop
// wrote (captured agent turns, proxied chat turns): they take at most
// 1/capturedShortlist of it, beside the person's own entries, which keep
// all of it (rankEntries). An agent's turns are many and about its work;
// the rare words of one still bring it in. A quarter, chosen before
// measuring: eval --dialogue --captured (docs/recall.md). Weighing a
// captured turn at half its BM25 as evidence of its day instead cost the
// questions only a captured turn answers 10 points of hit@1.
const capturedShortlist = 4

// capturedNearEqual is the share of its BM25 a captured turn keeps as
// evidence of its day: among near-equals the person's note comes first
// (the agent's words do not outrank the person's), while a captured turn
// that matches better still wins.
const capturedNearEqual = 0.98

// Changed facts (Supersede, updates.go).

// nearEqual is how close two statements' scores must be for the newer to
// be put first without a word of change: the weaker at least this share of
// the stronger. Chosen on the garage-door examples of docs/context.md; the
// updates eval (eval --updates) holds it.
const nearEqual = 0.5

// maxStatement is the most words of a statement that states a value: a
// fact is said in a sentence or two ("Changed the garage door code to
// 5521 after the break-in."); a longer message of a chat tells a story,
// and its numbers and names are not the subject's values. Set so that
// REALTALK's chat messages stay out of subjects.
const maxStatement = 30

// subjectPoolPerResult × limit is how many of the candidates past the
// result list, the best by BM25, Supersede reads beside the list: the
// current statement of a subject the list holds may be among them (a busy
// day whose summary does not name the fact ranks below days whose
// summaries name the subject's words), and then takes the subject's best
// place. The statements of a subject share its rare words, so they are
// near the top of BM25.
const subjectPoolPerResult = 1

// minOutsideSubject is the fewest query words the subject of a current
// statement past the list holds for it to come in, and it must say it
// changed. Inside the list one word of a short query is a subject, and
// two numbers said plainly a change (sameSubject, changes); from past it,
// on REALTALK, one word brought in chat messages that say no change of
// what was asked ("I can get a new roommate", "he doesn't really feel
// like a person anymore"), each costing a question its hit@1, and in a
// generated corpus two numbers brought in a note of other figures ("the
// standup format … Numbers: memory use 288 MB before, 135 MB after")
// above "Team standup moved to 10:00".
const minOutsideSubject = 2
