package daybook

// ReindexRequest asks for the index to be rebuilt from the markdown.
type ReindexRequest struct {
	// Changed indexes only the files that changed since they were indexed;
	// without it everything is dropped and rebuilt.
	Changed bool `json:"changed,omitempty"`
}

// ReindexResponse reports a reindex.
type ReindexResponse struct {
	Files     int     `json:"files"`   // source files seen
	Indexed   int     `json:"indexed"` // source files read and indexed
	Removed   int     `json:"removed"` // files gone from disk, dropped from the index
	Documents int     `json:"documents"`
	Vectors   int     `json:"vectors"`
	Bytes     int64   `json:"bytes"` // index size on disk
	Embedder  string  `json:"embedder"`
	Seconds   float64 `json:"seconds"`
}
