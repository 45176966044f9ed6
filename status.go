package daybook

import "time"

// StatusRequest asks how daybook stands.
type StatusRequest struct {
	// Brief skips everything that reads the data dir: the answer says only
	// who answers and for which data dir. The CLI sends it to find out
	// whether a daemon serves its data dir before every command.
	Brief bool `json:"brief,omitempty"`
}

// StatusResponse says how daybook stands. Each part of daybook fills in its
// own fields; a part that is absent leaves them at their zero values.
type StatusResponse struct {
	DataDir string       `json:"data_dir"`         // absolute
	Socket  string       `json:"socket,omitempty"` // the socket the CLI tried, or the daemon listens on
	Daemon  DaemonStatus `json:"daemon"`

	// Filled from the day files.
	Days       int      `json:"days"`
	Entries    int      `json:"entries"`
	Unreadable int      `json:"unreadable,omitempty"` // day files that do not parse, the conflicted ones included
	Zone       string   `json:"zone,omitempty"`       // the configured time zone every entry's day and time are taken in
	Conflicted []string `json:"conflicted,omitempty"` // day files holding conflict markers: "days/2026/11/24.md:12"
	Merge      []string `json:"merge,omitempty"`      // what the merge of edits and synced copies did or waits for, one line each

	// Filled by consolidation.
	Summaries  SummaryCounts `json:"summaries"`
	Stale      []string      `json:"stale,omitempty"` // periods whose summary is missing or older than its sources: 2026-11-22, 2026-11, 2026 (the first 20)
	StaleCount int           `json:"stale_count,omitempty"`
	Jobs       []JobStatus   `json:"jobs,omitempty"`

	// Filled by the index.
	Index IndexStatus `json:"index"`

	Summarizer string `json:"summarizer,omitempty"` // "offline/extractive-v2", "ollama/llama3.2"
	Embedder   string `json:"embedder,omitempty"`   // "offline/hash-v1", "ollama/nomic-embed-text"
}

// DaemonStatus says whether a daemon answered and since when it runs.
type DaemonStatus struct {
	Running bool      `json:"running"` // false: the CLI works on the files directly
	PID     int       `json:"pid,omitempty"`
	Started time.Time `json:"started,omitzero"`
	Uptime  string    `json:"uptime,omitempty"` // "3h2m1s"
	// StartedBy says how it was started: "autostart by daybook hook
	// prompt", "service", "by hand".
	StartedBy string `json:"started_by,omitempty"`
	// Stop is the command that stops it: "daybook daemon stop", or
	// "daybook service stop" for a service.
	Stop string `json:"stop,omitempty"`
}

// SummaryCounts counts the summaries of each level of the pyramid.
type SummaryCounts struct {
	Day   int `json:"day"`
	Month int `json:"month"`
	Year  int `json:"year"`
}

// JobStatus is one scheduled job of the daemon.
type JobStatus struct {
	Name      string    `json:"name"`           // daily, monthly, yearly, on_edit
	Spec      string    `json:"spec,omitempty"` // cron spec; "" for event-driven jobs
	LastRun   time.Time `json:"last_run,omitzero"`
	LastError string    `json:"last_error,omitempty"` // "" when the last run succeeded
	NextRun   time.Time `json:"next_run,omitzero"`
	Running   bool      `json:"running,omitempty"`
}

// IndexStatus describes the search index.
type IndexStatus struct {
	Bytes     int64 `json:"bytes"`     // on disk, full text and vectors together
	Documents int   `json:"documents"` // entries and summaries in the full-text index
	Vectors   int   `json:"vectors"`
	Dimension int   `json:"dimension,omitempty"`
}
