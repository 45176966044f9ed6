// Package cli is daybook's command line as far as a command only asks the
// daemon's API: the global flags (parsed here, once), the data dir and
// config they resolve, the one client of the daemon's socket (Env.Backend,
// apiclient.Client), the exit codes, and the commands a daemon answers (recall,
// find, day, days, expand, context, topics, topic, stats, remember). Both
// binaries run these commands with this code: daybook, the front, which
// links no search index and so starts in a few milliseconds, and
// daybook-core, the whole program, which adds the other commands and works
// on the files (Env.Local) when no daemon answers.
package cli
