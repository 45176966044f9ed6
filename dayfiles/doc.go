// Package dayfiles reads and writes daybook's source of truth: one markdown file
// a day under days/YYYY/MM/DD.md. It knows the format (docs/dayfiles.md), parses
// a file into entries and free-text notes with their line ranges, appends entries
// safely next to a person's hand edits, lists and scans the files, and watches
// them for changes.
package dayfiles
