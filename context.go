package daybook

// ContextRequest asks for an agent's context: the foundation, summaries from
// the top of the pyramid down, and recent entries, within a token budget.
type ContextRequest struct {
	Query  string `json:"query,omitempty"`
	Budget int    `json:"budget_tokens,omitempty"` // default from config (context.budget)
	// Sent names what the reader holds already, from an earlier block of
	// the same session: item ids, and "foundation" for foundation.md. The
	// block leaves them out and spends the budget on the rest (the hooks'
	// session budget, docs/agents.md).
	Sent []string `json:"sent,omitempty"`
}

// MaxSent is the most ids a ContextRequest's Sent may name.
const MaxSent = 10000

// ContextItem is one item placed in the context.
type ContextItem struct {
	ID      string  `json:"id"`   // expandable
	Part    string  `json:"part"` // foundation, summaries, recent
	Level   string  `json:"level"`
	Tokens  int     `json:"tokens"`
	Utility float64 `json:"utility,omitempty"`
	// Truncated: the item's prose was cut to fit; its id expands to the whole.
	Truncated bool `json:"truncated,omitempty"`
	// Line is an evidence item's line in its day file, as the block cites it.
	Line int `json:"line,omitempty"`
}

// ContextResponse is one markdown block and how the budget was spent.
type ContextResponse struct {
	Markdown  string        `json:"markdown"`
	Tokens    int           `json:"tokens"` // estimate of Markdown; over Budget only when foundation.md alone is (see Warnings)
	Budget    int           `json:"budget_tokens"`
	Items     []ContextItem `json:"items"`
	Omitted   int           `json:"omitted"`              // candidates that did not fit
	Warnings  []string      `json:"warnings,omitempty"`   // e.g. the foundation alone is over the budget
	RawTokens int           `json:"raw_tokens,omitempty"` // tokens of the raw day files the context covers
	// NothingRecalled says that recall found nothing for the request's
	// query: the block holds no evidence for it (its title says so too).
	NothingRecalled bool `json:"nothing_recalled,omitempty"`
}

// StatsRequest asks for statistics.
type StatsRequest struct{}

// Count is a name with a count and the first and last day it was seen.
type Count struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
	First string `json:"first,omitempty"`
	Last  string `json:"last,omitempty"`
}

// StatsResponse describes the memory.
type StatsResponse struct {
	Entries     int                `json:"entries"`
	Days        int                `json:"days"`
	Summaries   map[string]int     `json:"summaries"`   // per level
	Coverage    map[string]float64 `json:"coverage"`    // per level: share of periods with a current summary
	Compression float64            `json:"compression"` // raw day-file tokens a default context covers / its tokens
	TopTopics   []Count            `json:"top_topics"`
	Busiest     map[string][]Count `json:"busiest"` // per level: the periods with most entries
	// The index beside the markdown: its bytes on disk, the day files'
	// bytes, and the one over the other (0 without day files).
	IndexBytes   int64   `json:"index_bytes"`
	DayFileBytes int64   `json:"day_file_bytes"`
	IndexRatio   float64 `json:"index_ratio"`
	// DaemonRSS is the resident memory of the daemon that answered, in
	// bytes; absent when no daemon did (or the system does not tell).
	DaemonRSS int64 `json:"daemon_rss_bytes,omitempty"`
	// Injected is what the context hooks handed agent sessions (the
	// sessions' files kept under state/hooks/context); absent when none.
	Injected *Injected `json:"injected,omitempty"`
}

// Injected counts the tokens the context hooks handed over: at the
// sessions' starts and to their prompts.
type Injected struct {
	Sessions     int `json:"sessions"`
	Starts       int `json:"starts"` // SessionStart blocks: startup, resume, clear, compact
	StartTokens  int `json:"start_tokens"`
	Asked        int `json:"prompts"`       // prompts the hook ran for
	Prompts      int `json:"prompt_blocks"` // prompts handed a block
	PromptTokens int `json:"prompt_tokens"`
}
