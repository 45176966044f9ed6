package consolidate

import (
	"context"

	"github.com/daybook/daybook/dayfiles/date"
)

// Summarizer writes the prose of a summary. Everything that must not be lost
// (decisions verbatim with their links, tag and people counts, busiest days,
// stats) is computed by this package, not by the Summarizer, so a model that
// leaves something out cannot lose it.
type Summarizer interface {
	// Name identifies the summarizer and its version in front matter,
	// "offline/extractive-v2" or "ollama/llama3.2".
	Name() string
	// Summarize returns prose for in, at most about in.WordLimit words.
	Summarize(ctx context.Context, in Input) (string, error)
}

// Input is what a summary is made from.
type Input struct {
	Level     date.Level
	Period    string // 2026-11-22, 2026-11 or 2026
	Items     []Item // a day: its entries and notes; a month: its daily summaries; a year: its monthly ones
	WordLimit int    // about 120 a day, 250 a month, 400 a year
}

// Item is one input of a summary, oldest first.
type Item struct {
	ID   string   // entry id, note id, or the summary id (day:2026-11-22, month:2026-11)
	When string   // "09:14" for an entry, the period for a summary, "" for a note
	Kind string   // entry kind, "text" for a free-text note, "summary" for a summary
	Text string   // entry or note text; a summary's prose
	Tags []string // lower-case, without '#'
	Ref  string   // source, days/2026/11/22.md:7 or summaries/2026/11/22.md

	turns int // of a folded captured session (dayItems)
}
