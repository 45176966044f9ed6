// Package consolidate builds daybook's pyramid of summaries from the day
// files: daily summaries from a day's entries and notes, monthly from dailies,
// yearly from monthlies, written as markdown under summaries/:
// summaries/2026/11/22.md, summaries/2026/11.md and summaries/2026.md.
//
// Each summary has YAML front matter (level, period, the digest of its
// inputs, the summarizer's name, when it was written, the hash of its body,
// counts) and a body: the prose of a Summarizer, then what must not be lost,
// computed here from the day files: decisions verbatim with a link to their
// days/...md line, tags and people with counts, and for months and years the
// busiest days and the stats. A year shows its 50 most salient decisions and
// links its months for the rest.
//
// Only closed periods are consolidated: a day before today, a month before
// this month, a year before this year, "today" taken in the configured zone.
// An open period would be rewritten with every new entry. A period with no
// entries gets no summary.
//
// A Run is incremental: it compares the day files' sizes and times against
// what it recorded in summaries/.state.json (a sorted diff), reads only the
// files whose time changed, and rewrites a summary only when the digest of its
// inputs changed, so an edited day redoes that day, its month and its year.
// A summary that a person edited is never overwritten (Force aside): its
// content hash is not the one daybook recorded, in the state file or, when
// that is lost, in its own front matter; a front matter with a comment, key
// or layout of a person's counts as an edit too. Writes are atomic, and a lock on
// DATA/.consolidate.lock keeps two processes from consolidating at once.
//
// It is outside internal/ because the summaries are a format of their own
// (docs/summaries.md) that other programs read: ReadSummary parses them.
package consolidate
