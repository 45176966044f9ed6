package dayfiles

import (
	"path"
	"regexp"
	"strings"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/dayfiles/scan"
)

var conflictOpen = []byte(scan.ConflictOpen)

// A ConflictError is what Parse returns for a day file holding conflict
// markers: see scan.ConflictError.
type ConflictError = scan.ConflictError

// PendingDir is where entries wait for a day whose file holds conflict
// markers: see scan.PendingDir.
const PendingDir = scan.PendingDir

// ConflictLine returns the line (1-based) of the first conflict marker in
// data, 0 when it has none: see scan.ConflictLine.
func ConflictLine(data []byte) int { return scan.ConflictLine(data) }

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
