// Package entrytext holds the rules of an entry's text that every way in
// applies before a write: how long one entry's text may be, how a longer
// turn is cut (CutText) or split (SplitText), and which bytes are cleaned
// (CleanText). It imports nothing but the standard library, so that the
// front (cmd/daybook, through the hooks) cuts a capture by the same rule as
// the daemon without linking dayfiles' parser and watcher.
package entrytext
