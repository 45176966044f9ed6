// Package consolidate builds daybook's pyramid of summaries from the day
// files: daily summaries from a day's entries and notes, monthly from dailies,
// yearly from monthlies, written as markdown under summaries/.
package consolidate
