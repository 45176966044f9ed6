package daybook

// ExpandRequest asks for the full text behind an id that recall returned.
type ExpandRequest struct {
	ID string `json:"id"` // an entry id, DATE:Lnn, day:2026-02-13, month:2026-02, year:2026
}

// ExpandResponse is the full text of an entry, a note, a day file or a summary.
type ExpandResponse struct {
	ID      string   `json:"id"`
	Level   string   `json:"level"` // entry, line, day, month, year
	Period  string   `json:"period"`
	Path    string   `json:"path"` // relative to the data dir
	Line    int      `json:"line"`
	EndLine int      `json:"end_line,omitempty"`
	Text    string   `json:"text"`              // an entry's exact text; a summary's whole markdown; a day's file
	Entry   *Entry   `json:"entry,omitempty"`   // for entries
	Related []string `json:"related,omitempty"` // ids one level down (a month's days, a day's entries)

	// A day's summary, when it has one: Text is then the day file.
	Summary     string `json:"summary,omitempty"`
	SummaryPath string `json:"summary_path,omitempty"` // relative to the data dir

	// Open is set for a day, month or year that is not over yet: it has
	// no summary until it is (the daemon writes it after).
	Open bool `json:"open,omitempty"`
}

// BrowseRequest lists the summaries of one level.
type BrowseRequest struct {
	Level string `json:"level"` // day, month, year
	From  string `json:"from,omitempty"`
	To    string `json:"to,omitempty"`
	Limit int    `json:"limit,omitempty"` // default 50
}

// SummaryInfo is one summary in a listing.
type SummaryInfo struct {
	ID         string `json:"id"`
	Level      string `json:"level"`
	Period     string `json:"period"`
	Path       string `json:"path"`
	Prose      string `json:"prose"`
	Summarizer string `json:"summarizer"`
	Stale      bool   `json:"stale,omitempty"`       // its inputs changed since it was written
	HandEdited bool   `json:"hand_edited,omitempty"` // a person edited it; daybook keeps it
	Error      string `json:"error,omitempty"`       // the file could not be read; Prose is empty
}

// BrowseResponse lists summaries, newest first.
type BrowseResponse struct {
	Summaries []SummaryInfo `json:"summaries"`
}
