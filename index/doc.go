// Package index keeps daybook's derived search index: a bleve full-text index
// of summaries and entries plus a small pure-Go vector store beside it. It is
// disposable: everything in it can be rebuilt from the markdown.
//
// Layout under DATA/index/ (and DATA/index.lock beside it, whose lock
// makes one process the owner: openlock.go):
//
//	meta.json      format version, embedder name and dimension
//	bleve/         the bleve (scorch) index
//	vectors.bin    the vector store's last full image
//	vectors.log    upserts and deletes since then, each record checksummed
//
// Documents are summaries (level year, month or day; ids year:2026,
// month:2026-02, day:2026-02-13), entries of day files (level entry, the
// entry's id) and the free-text notes of day files (level entry with kind
// "text", id 2026-02-13:L12): notes are found by the same drill as entries,
// inside their day, and recall reports them with level "line". Every
// document carries keyword fields for its level, kind, tags, period and the
// parent periods (year, month, day), and start/end dates, so a query can be
// restricted to a parent period and to a date range before ranking.
//
// An Index is two parts, each with its own state and lock: a TextIndex
// (bleve and the manifest of the source files, written in one batch; BM25
// ranking and reading documents back) and a VectorStore (the vectors, their
// log and image, meta.json, the documents waiting for a vector while the
// embedder is away; cosine ranking and the orphan parents). The Index owns
// what spans both: the writes (Sync, SyncPaths, FillVectors) plan, embed,
// then change both parts under both locks; the open lock; Close. A consumer
// declares the methods it uses of either part (recall.Searcher).
//
// It is outside internal/ because it is one of the parts the design names, and
// a tool that rebuilds or inspects a data dir's index uses it directly.
package index
