// Package daemon runs "daybook daemon": it holds one data dir (a pid file
// locked with flock), keeps the summaries current on a cron schedule in the
// configured time zone, backfills what the schedule missed while the daemon
// was down or the machine slept, watches the day files for edits to refresh
// their index entries and summaries, and serves the socket API. Each part owns
// its goroutines; Run starts them and returns, Close cancels and waits.
//
// It is outside internal/ because it is one of the parts the design names: a
// program that embeds daybook's memory in its own process runs a Daemon on a
// data dir the same way "daybook daemon" does. The daemon declares what it
// uses of that memory (App) and of consolidation (Consolidator); its
// signatures name only public types, which testdata/outside checks.
package daemon
