package app

import (
	"fmt"
	"strings"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/internal/merge"
)

// checkZone names the zone every entry's day and time are taken in.
func (ck *Checkup) checkZone() daybook.Check {
	return ok("zone", "%s: every entry's day and time, whichever process writes it", ck.Loc())
}

// checkMerges reports day files holding conflict markers, conflict copies
// that sync tools left in days/, and entries waiting for a conflict.
func (ck *Checkup) checkMerges() daybook.Check {
	const name = "conflicts"
	days, lines, err := merge.Conflicted(ck.dir)
	if err != nil {
		return fail(name, "check the permissions of the days/ folders", "%v", err)
	}
	var bad []string
	for i, d := range days {
		bad = append(bad, fmt.Sprintf("%s:%d has conflict markers", dayfiles.RelPath(d), lines[i]))
	}
	copies := merge.ConflictCopies(ck.dir)
	for _, c := range copies {
		bad = append(bad, fmt.Sprintf("%s is a conflict copy of %s", c.Rel, dayfiles.RelPath(c.Date)))
	}
	if len(bad) == 0 {
		return ok(name, "no conflict markers or conflict copies in days/")
	}
	fix := "edit the marked days to keep what belongs (remove the <<<<<<<, =======, >>>>>>> lines); a running daemon merges conflict copies and moves them to " + merge.AsideDir
	return warn(name, fix, "%s", strings.Join(bad, "; "))
}
