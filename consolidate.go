package daybook

// ConsolidateRequest asks for the summaries of a range to be brought up to
// date. Only closed periods are consolidated: days before today, months
// before this month, years before this year.
type ConsolidateRequest struct {
	From  string `json:"from,omitempty"`  // first day; default the first day file
	To    string `json:"to,omitempty"`    // last day; default yesterday
	Level string `json:"level,omitempty"` // day, month or year; default all, in that order
	Force bool   `json:"force,omitempty"` // rewrite even unchanged and hand-edited summaries

	// Progress, if set, is called after each period; it does not cross the
	// socket.
	Progress func(done, total int) `json:"-"`
}

// ConsolidateResponse reports a consolidation.
type ConsolidateResponse struct {
	Written    WrittenCounts `json:"written"`
	Unchanged  int           `json:"unchanged"`
	Kept       []string      `json:"kept,omitempty"`    // hand-edited summaries left as they are
	Removed    []string      `json:"removed,omitempty"` // summaries whose day files are gone
	Skipped    []SkippedFile `json:"skipped,omitempty"` // day files that could not be read
	DurationMS int64         `json:"duration_ms"`
}

// WrittenCounts counts the summaries written at each level.
type WrittenCounts struct {
	Days   int `json:"days"`
	Months int `json:"months"`
	Years  int `json:"years"`
}

// SkippedFile is a day file left out, with why.
type SkippedFile struct {
	Path   string `json:"path"` // relative to the data dir
	Reason string `json:"reason"`
}
