package dayfiles

import (
	"time"

	"github.com/daybook/daybook/dayfiles/date"
)

// ParseGoldmark is Parse without the fast path, for the differential tests
// of package dayfiles_test, which can use gen.
func ParseGoldmark(path string, d date.Date, data []byte) (*Day, error) {
	return parse(path, d, data, false)
}

// FastRest returns the line of data from which Parse hands over to goldmark,
// 0 when the fast path reads all of it.
func FastRest(data []byte) int {
	if len(data) == 0 {
		return 0
	}
	_, rest := fastBlocks(newLineIndex(data))
	return rest
}

// Append appends e to its day file under the data dir root, creating folders
// and the title line as needed. See AppendMany.
func Append(root string, loc *time.Location, e NewEntry) (Written, error) {
	w, err := AppendMany(root, loc, []NewEntry{e})
	if err != nil {
		return Written{}, err
	}
	return w[0], nil
}

// AppendMany appends entries to their day files, one locked write per day, in
// the order given within each day. Existing content is never rewritten: bytes
// are only added at the end. Each day's batch is one write(2) followed by
// fsync, so after a crash it is whole or absent, and the file still parses.
// Several processes may append at once: each day file is locked (package filelock)
// for the write, and a file replaced by an editor's rename-save while waiting
// for the lock is opened again.
//
// They are for dayfiles' own tests only: daybook appends through package
// merge's Keeper, and the tests of other packages through package
// daybooktest.
func AppendMany(root string, loc *time.Location, entries []NewEntry) ([]Written, error) {
	batches, err := ByDay(loc, entries)
	if err != nil {
		return nil, err
	}
	out := make([]Written, len(entries))
	for _, b := range batches {
		ws, err := appendDay(root, b.Date, b.Lines)
		if err != nil {
			return out, err
		}
		for k, i := range b.Index {
			out[i] = ws[k]
		}
	}
	return out, nil
}

// appendDay appends the formatted entries to d's file.
func appendDay(root string, d date.Date, entries []string) ([]Written, error) {
	l, err := LockDay(root, d, true)
	if err != nil {
		return nil, err
	}
	defer l.Close()
	return l.Append(entries, nil)
}

// Scan is ScanFiles without the conflicts, for dayfiles' own tests.
// Scan reads files newest first and returns their matching lines, newest
// first (the last line of the newest day first), at most limit of them when
// limit > 0. It reports how many files it read. Workers read and search
// chunks of files ahead while the results are taken in order, so the order
// and the limit are exact; the workers stop soon after the limit is reached.
func Scan(files []File, m *Matcher, limit int) (matches []ScanMatch, read int, err error) {
	s, err := ScanFiles(files, m, limit)
	return s.Matches, s.Read, err
}
