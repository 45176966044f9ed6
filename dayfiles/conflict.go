package dayfiles

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/daybook/daybook/dayfiles/date"
)

var conflictOpen = []byte("<<<<<<<")

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

// conflictName matches the names sync tools and merge tools give a copy of
// DD.md they could not reconcile, in the day's month folder:
//
//	24.sync-conflict-20261124-101500-ABCDEFG.md  Syncthing
//	24 (Ana's conflicted copy 2026-11-24).md     Dropbox
//	24 (conflicted copy 2026-11-24 101500).md    Nextcloud
//	24_conflict-20261124-101500.md               ownCloud
//	24 (conflict).md, 24.conflict.md             others
//	24.md.orig, 24_LOCAL_1234.md, 24_REMOTE_...  git mergetool
var conflictName = regexp.MustCompile(`^(\d\d)(?:(?:[ ._].*(?i:conflict).*\.md)|\.md\.orig|_(?:LOCAL|REMOTE|BASE|BACKUP)_\d+\.md)$`)

// ConflictCopyDay returns the day whose file rel (relative to the data dir,
// as "days/2026/11/24.sync-conflict-20261124-101500-ABC.md") is a
// conflict copy of; ok is false for any other path.
func ConflictCopyDay(rel string) (date.Date, bool) {
	rel = strings.ReplaceAll(rel, "\\", "/")
	dir, name := path.Split(rel)
	m := conflictName.FindStringSubmatch(name)
	if m == nil {
		return date.Date{}, false
	}
	return DateOfRel(dir + m[1] + ".md")
}
