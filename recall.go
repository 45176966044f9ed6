package daybook

// MaxRecallLimit is the most results one recall returns.
const MaxRecallLimit = 1000

// Methods of RecallRequest.Mode.
const (
	ModeDrill  = "drill"
	ModeBM25   = "bm25"
	ModeVector = "vector"
	ModeLinear = "linear"
)

// RecallRequest asks what daybook remembers about a query.
type RecallRequest struct {
	Query   string `json:"query"` // may hold temporal phrases: "last March", "in June 2025", "yesterday"
	From    string `json:"from,omitempty"`
	To      string `json:"to,omitempty"`
	Level   string `json:"level,omitempty"` // year, month, day, entry: only results of that level
	Limit   int    `json:"limit,omitempty"` // default from config (10)
	Explain bool   `json:"explain,omitempty"`
	// Mode chooses the method, for "daybook eval": drill (default), bm25 (flat
	// full text over entries), vector (flat vectors over entries), linear (the
	// day-file scan).
	Mode string `json:"mode,omitempty"`
}

// RecallResult is one hit. Every hit points at its source file and line.
type RecallResult struct {
	ID      string  `json:"id"`     // day:2026-02-13, month:2026-02, year:2026, an entry id, or DATE:Lnn for a line
	Level   string  `json:"level"`  // year, month, day, entry, line
	Period  string  `json:"period"` // 2026, 2026-02, 2026-02-13 (an entry's period is its day)
	Score   float64 `json:"score"`
	Snippet string  `json:"snippet"` // with the matched terms
	Path    string  `json:"path"`    // relative to the data dir
	Line    int     `json:"line"`
	Day     string  `json:"day,omitempty"` // YYYY-MM-DD of a day, entry or line result
	// SupersededBy is the id of a newer entry that changed what this one
	// states (docs/context.md, "Changed facts"); "" for most.
	SupersededBy string   `json:"superseded_by,omitempty"`
	Explain      *Explain `json:"explain,omitempty"`
}

// Explain gives a score's parts.
type Explain struct {
	Parent     string  `json:"parent,omitempty"` // the period the hit was searched inside
	BM25       float64 `json:"bm25"`
	BM25Rank   int     `json:"bm25_rank,omitempty"`
	Cosine     float64 `json:"cosine"`
	CosineRank int     `json:"cosine_rank,omitempty"`
	Fused      float64 `json:"fused"`
	// Day is the score of the day the hit is ranked by, and its parts.
	Day *DayScore `json:"day,omitempty"`
}

// DayScore is how a day ranks: the evidence of its entries and the
// similarity of its summary, each divided by the best of the candidates,
// weighed into one score (docs/recall.md).
type DayScore struct {
	Entries float64 `json:"entries"`
	Summary float64 `json:"summary"`
	Score   float64 `json:"score"`
}

// RecallResponse lists hits, best first.
type RecallResponse struct {
	Query   string         `json:"query"`
	Range   string         `json:"range,omitempty"` // FROM..TO applied, from flags and temporal phrases
	Results []RecallResult `json:"results"`
	Path    []string       `json:"drill,omitempty"` // with explain: the periods the drill went through, in order
	Method  Method         `json:"method"`          // drill, or the fallback that answered: months, days, linear
}
