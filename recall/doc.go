// Package recall answers "what do I remember about X": a top-down drill
// through the pyramid of summaries (the best years, the best months inside
// them, the best days inside those, the best entries inside the days), each
// level's search restricted to its parent period, each score fusing BM25
// with vector cosine; a fallback cascade when the pyramid is missing levels;
// and a ranked linear scan of the day files (Linear) when there are no
// summaries at all, so that recall works on day one. Temporal phrases in the
// query ("last March") and --from/--to narrow every search before ranking
// (ParseTemporal).
//
// It is outside internal/ because recall is the question daybook answers: a
// program that holds an open index asks it through this package.
package recall
