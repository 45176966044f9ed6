package daybook

// RememberRequest asks for one entry to be appended to its day file.
type RememberRequest struct {
	Text string   `json:"text"`
	Kind string   `json:"kind,omitempty"` // fact, decision, note (default), todo, event
	Tags []string `json:"tags,omitempty"`
	At   string   `json:"at,omitempty"` // HH:MM, YYYY-MM-DD HH:MM or RFC 3339; default now
}

// RememberResponse says where the entry was written.
type RememberResponse struct {
	ID   string `json:"id"`
	Date string `json:"date"`
	Path string `json:"path"` // relative to the data dir: days/2026/11/22.md
	Line int    `json:"line"`
}

// ImportLine is one line of an import file (JSON lines).
type ImportLine struct {
	At   string   `json:"at"`
	Text string   `json:"text"`
	Kind string   `json:"kind,omitempty"`
	Tags []string `json:"tags,omitempty"`
}

// ImportOptions tune an import.
type ImportOptions struct {
	Strict  bool // any bad line rejects the whole input before anything is written
	AnyDate bool // take dates outside the configured window (old journals)
	// Flatten writes a line whose markdown would end its entry early (an
	// empty list item before a blank line, say) as one paragraph, its words
	// joined by spaces, rather than refusing it: an agent's captured turns.
	Flatten bool
}

// ImportResponse reports an import.
type ImportResponse struct {
	Added    int           `json:"added"`
	Skipped  int           `json:"skipped"` // already in their day files
	Days     int           `json:"days"`
	Rejected []ImportError `json:"rejected,omitempty"`
}

// ImportError is a rejected input line.
type ImportError struct {
	Line  int    `json:"line"`
	Error string `json:"error"`
}

// Entry is an entry as the API shows it.
type Entry struct {
	ID      string   `json:"id"`
	Date    string   `json:"date"`
	Time    string   `json:"time"`
	Kind    string   `json:"kind"`
	Text    string   `json:"text"`
	Tags    []string `json:"tags,omitempty"`
	Path    string   `json:"path"`
	Line    int      `json:"line"`
	EndLine int      `json:"end_line"`
}

// DayRequest asks for one day.
type DayRequest struct {
	Date string `json:"date"` // YYYY-MM-DD, today, yesterday, -3d; default today
}

// DayResponse is a day file and what it holds.
type DayResponse struct {
	Date    string  `json:"date"`
	Path    string  `json:"path"`
	Exists  bool    `json:"exists"`
	Content string  `json:"content"`
	Entries []Entry `json:"entries"`
}

// DaysRequest lists days in a range.
type DaysRequest struct {
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
}

// DayInfo is one line of a days listing.
type DayInfo struct {
	Date    string `json:"date"`
	Path    string `json:"path"`
	Entries int    `json:"entries"`
	Notes   int    `json:"notes"`
	Error   string `json:"error,omitempty"` // the file could not be parsed
}

// DaysResponse lists days, oldest first.
type DaysResponse struct {
	Days []DayInfo `json:"days"`
}

// FindRequest is a linear scan over the day files.
type FindRequest struct {
	Pattern string `json:"pattern"`
	From    string `json:"from,omitempty"`
	To      string `json:"to,omitempty"`
	Regex   bool   `json:"regex,omitempty"`
	Limit   int    `json:"limit,omitempty"` // 0: all
}

// Match is one matching line.
type Match struct {
	Date string `json:"date"`
	Path string `json:"path"` // relative to the data dir
	Line int    `json:"line"`
	Text string `json:"text"`
}

// FindResponse lists matches, newest first.
type FindResponse struct {
	Matches   []Match `json:"matches"`
	FilesRead int     `json:"files_read"`
	Truncated bool    `json:"truncated,omitempty"` // the limit cut the list
	// Skipped names the day files in range that were not searched, newest
	// first: they hold conflict markers.
	Skipped []Skipped `json:"skipped,omitempty"`
}

// Skipped is a day file a read left out, and why.
type Skipped struct {
	Path   string `json:"path"` // relative to the data dir
	Line   int    `json:"line"` // the line of the cause (the first conflict marker)
	Reason string `json:"reason"`
}
