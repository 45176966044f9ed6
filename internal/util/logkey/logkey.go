// Package logkey names the keys of daybook's structured log lines, so that
// every part writes the same key for the same thing and a reader can filter
// on it (jq 'select(.system == "index")').
package logkey

// System is the part of daybook a line comes from: "daemon", "index",
// "consolidate", "proxy", ... Each part's logger carries it
// (log.With(logkey.System, "index")).
const System = "system"
