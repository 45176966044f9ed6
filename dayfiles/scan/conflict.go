package scan

import (
	"bytes"
	"fmt"
)

// ConflictOpen begins the first line of a conflict (see ConflictLine).
const ConflictOpen = "<<<<<<<"

var conflictOpen = []byte(ConflictOpen)

// A ConflictError is what Parse returns for a day file holding conflict
// markers (see ConflictLine): it holds two versions of the day, and none of
// it is read as entries until a person resolves it.
type ConflictError struct {
	Path string
	Line int // of the first "<<<<<<<"
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%s:%d: conflict markers (<<<<<<<, =======, >>>>>>>) left by a merge: resolve them by hand; until then the day is left out of recall and summaries, and new entries wait in %s", e.Path, e.Line, PendingDir)
}

// PendingDir is where entries for a day whose file holds conflict markers
// wait, one file per day, until the markers are resolved: the daemon then
// appends them to the day ("state/pending/2026-11-24.md").
const PendingDir = "state/pending"

// ConflictLine returns the line (1-based) of the first conflict marker in
// data, 0 when it has none: a version-control merge left "<<<<<<< ours",
// "=======" and ">>>>>>> theirs" lines in the file. Such a day holds two
// versions at once, so none of it is taken as entries until a person
// resolves it. A "<<<<<<<" line counts only when a ">>>>>>>" line follows
// it, so that a lone "=======" (a setext heading's underline) is no marker.
func ConflictLine(data []byte) int {
	open := 0
	line := 0
	for len(data) > 0 {
		line++
		l := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		l = bytes.TrimRight(l, "\r")
		switch {
		case open == 0 && isMarker(l, '<'):
			open = line
		case open > 0 && isMarker(l, '>'):
			return open
		}
	}
	return 0
}

// isMarker reports whether l is a conflict marker of seven c's, alone or
// followed by a space and a label.
func isMarker(l []byte, c byte) bool {
	if len(l) < 7 || bytes.Count(l[:7], []byte{c}) != 7 {
		return false
	}
	return len(l) == 7 || l[7] == ' '
}
