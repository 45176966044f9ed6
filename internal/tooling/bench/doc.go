// Package bench measures daybook end to end on generated corpora: the
// backfill and reindex in child processes (wall time, CPU and peak RSS), the
// no-change consolidation rerun, recall latency in process, through a
// daemon's socket and through the CLI, the linear scan against grep and
// ripgrep on the same files (in turns, beside each program's start), and
// the idle daemon's RSS. "daybook bench"
// prints its Report as a table or JSON.
//
// Absolute figures depend on the machine and on what else runs on it; the
// ratios the report gives (find against ripgrep, 20 years against 5) are
// measured in the same run and are the ones to compare across machines.
package bench
