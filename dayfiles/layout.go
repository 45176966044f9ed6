package dayfiles

import (
	"log/slog"
	"strconv"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/dayfiles/scan"
)

// The layout of the day files lives in package scan, which imports no
// markdown parser or watcher, so that a program that only lists and scans
// the files (the front's find) links little; these are its names here.

// DaysDir is the folder under the data dir that holds the day files.
const DaysDir = scan.DaysDir

// File is a day file on disk.
type File = scan.File

// RelPath returns the path of d's day file relative to the data dir,
// "days/2026/11/22.md", with forward slashes on every OS.
func RelPath(d date.Date) string { return scan.RelPath(d) }

// Path returns the path of d's day file under the data dir root.
func Path(root string, d date.Date) string { return scan.Path(root, d) }

// DateOfRel returns the day of a path relative to the data dir such as
// "days/2026/11/22.md"; ok is false for any other path.
func DateOfRel(rel string) (date.Date, bool) { return scan.DateOfRel(rel) }

// Title returns the title line of d's day file, "# 2026-11-22 Sunday".
func Title(d date.Date) string { return "# " + d.String() + " " + d.Weekday().String() }

// List returns the day files under root whose day is in r, oldest first:
// see scan.List.
func List(root string, r date.Range, log *slog.Logger) ([]File, error) {
	return scan.List(root, r, log)
}

// ListPaths is List without Size and ModTime: see scan.ListPaths.
func ListPaths(root string, r date.Range, log *slog.Logger) ([]File, error) {
	return scan.ListPaths(root, r, log)
}

// number parses s, a folder name of width digits (a year, a month).
func number(s string, width int) (int, bool) {
	if len(s) != width {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 0
}
