// Package dayfiles reads and writes daybook's source of truth: one markdown file
// a day under days/YYYY/MM/DD.md. It knows the format (docs/dayfiles.md), parses
// a file into entries and free-text notes with their line ranges, appends entries
// safely next to a person's hand edits, lists and scans the files, and watches
// them for changes.
//
// It is outside internal/ because the day files are the source of truth and
// their format is public (docs/dayfiles.md): other programs that read or append
// to a data dir should use this package rather than a parser of their own.
package dayfiles
