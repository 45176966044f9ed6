package merge

import (
	"bytes"
	"fmt"
	"os"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// Notices returns, one line each, what a person should know about merges
// of root's day files: entries appended again after a stale copy dropped
// them (within Window), entries waiting for a conflict to be resolved, and
// conflict copies not merged yet. Status shows them.
func Notices(root string) []string {
	var out []string
	for _, d := range stateDays(root) {
		st, err := load(root, d)
		if err != nil {
			out = append(out, err.Error())
			continue
		}
		for _, r := range st.Restored {
			out = append(out, fmt.Sprintf("%s: appended again at %s after a stale copy saved over it (delete it again if that was meant): %s",
				dayfiles.RelPath(d), r.At.Format("2006-01-02 15:04"), r.Text))
		}
	}
	for _, d := range pendingDays(root) {
		if data, err := os.ReadFile(dayfiles.Path(root, d)); err == nil && dayfiles.ConflictLine(data) == 0 {
			out = append(out, fmt.Sprintf("%s: kept changing (a writer that takes no lock); new entries wait in %s until it is left alone for a moment", dayfiles.RelPath(d), pendingRel(d)))
			continue
		}
		out = append(out, fmt.Sprintf("%s: holds conflict markers; new entries wait in %s until they are resolved", dayfiles.RelPath(d), pendingRel(d)))
	}
	for _, c := range ConflictCopies(root) {
		out = append(out, fmt.Sprintf("%s: a conflict copy of %s, not merged yet (the daemon merges it)", c.Rel, dayfiles.RelPath(c.Date)))
	}
	return out
}

// Conflicted returns the days under root whose files hold conflict
// markers, with the line of the first, oldest first.
func Conflicted(root string) ([]date.Date, []int, error) {
	files, err := dayfiles.ListPaths(root, date.Range{}, nil)
	if err != nil {
		return nil, nil, err
	}
	var days []date.Date
	var lines []int
	for _, f := range files {
		data, err := os.ReadFile(f.Path)
		if err != nil || !bytes.Contains(data, []byte("<<<<<<<")) {
			continue
		}
		if l := dayfiles.ConflictLine(data); l > 0 {
			days = append(days, f.Date)
			lines = append(lines, l)
		}
	}
	return days, lines, nil
}
