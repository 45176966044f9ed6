package merge

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// pendingRel returns where entries for d wait while d's file holds
// conflict markers, relative to the data dir.
func pendingRel(d date.Date) string { return dayfiles.PendingDir + "/" + d.String() + ".md" }

// appendPending appends the formatted entries of a day whose file holds
// conflict markers, or keeps changing, to the day's pending file instead:
// appended after the markers they would be taken for part of the
// conflict, and lost to a person resolving it by taking one side; appended
// to a file being saved they would land under the save's next write. why
// is logged.
func (k *Keeper) appendPending(b dayfiles.Batch, why string) ([]dayfiles.Written, error) {
	rel := pendingRel(b.Date)
	p := filepath.Join(k.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return nil, fmt.Errorf("creating folder for %s: %w", p, err)
	}
	f, err := os.OpenFile(p, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	old, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	chunk := strings.Join(b.Lines, "")
	if _, err := f.WriteString(chunk); err != nil {
		f.Truncate(fi.Size())
		return nil, fmt.Errorf("appending to %s: %w", p, err)
	}
	if err := f.Sync(); err != nil {
		f.Truncate(fi.Size())
		return nil, fmt.Errorf("syncing %s: %w", p, err)
	}
	all, err := dayfiles.Parse(rel, b.Date, append(old, chunk...))
	if err != nil || len(all.Entries) < len(b.Lines) {
		return nil, fmt.Errorf("appending to %s: the entries do not parse back (a bug): %v", p, err)
	}
	news := all.Entries[len(all.Entries)-len(b.Lines):]
	ws := make([]dayfiles.Written, len(b.Lines))
	for i, e := range news {
		ws[i] = dayfiles.Written{ID: e.ID, Date: b.Date, Path: p, Rel: rel, Line: e.Line}
	}
	k.log.Warn(why, "path", dayfiles.RelPath(b.Date), "pending", rel, "entries", len(ws))
	return ws, nil
}

// flushPending appends d's pending entries to its file once it is free of
// conflict markers and settled, and removes the pending file. It reports
// whether it appended, and whether the file has yet to settle (look again
// later).
func (k *Keeper) flushPending(d date.Date) (wrote, wait bool) {
	rel := pendingRel(d)
	p := filepath.Join(k.root, filepath.FromSlash(rel))
	if _, err := os.Stat(p); errors.Is(err, os.ErrNotExist) {
		return false, false
	}
	unlock, err := lockDay(k.root, d)
	if err != nil {
		k.log.Warn("appending pending entries", "path", rel, "err", err)
		return false, false
	}
	defer unlock()
	// Read under the lock: appendPending writes under it.
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return false, false
	}
	if err != nil {
		k.log.Warn("reading pending entries", "path", rel, "err", err)
		return false, false
	}
	l, err := dayfiles.LockDay(k.root, d, true)
	if err != nil {
		k.log.Warn("appending pending entries", "path", rel, "err", err)
		return false, false
	}
	defer l.Close()
	if dayfiles.ConflictLine(l.Content()) > 0 {
		return false, false
	}
	day, err := dayfiles.Parse(rel, d, data)
	if err != nil {
		k.log.Warn("pending entries do not parse; leaving them", "path", rel, "err", err)
		return false, false
	}
	src := strings.Split(string(data), "\n")
	lines := make([]string, len(day.Entries))
	for i, e := range day.Entries {
		lines[i] = entryLines(src, e)
	}
	st, end, wait, err := k.base(l)
	if wait {
		return false, true
	}
	if err != nil {
		k.log.Error("appending pending entries; they stay pending", "path", rel, "err", err)
		return false, false
	}
	ws, err := k.appendRecorded(l, st, end, lines, nil)
	if errors.Is(err, errChanged) {
		return false, true
	}
	if err != nil {
		k.log.Error("appending pending entries; they stay pending", "path", rel, "err", err)
		return false, false
	}
	if err := os.Remove(p); err != nil {
		k.log.Error("removing the pending file after appending its entries: remove it by hand, or they are appended twice", "path", rel, "err", err)
	}
	k.log.Info("appended the day's pending entries", "path", dayfiles.RelPath(d), "entries", len(ws))
	return true, false
}

// pendingDays lists the days with a pending file.
func pendingDays(root string) []date.Date {
	ents, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dayfiles.PendingDir)))
	if err != nil {
		return nil
	}
	var out []date.Date
	for _, e := range ents {
		n := e.Name()
		if d, err := date.Parse(strings.TrimSuffix(n, ".md")); err == nil && strings.HasSuffix(n, ".md") {
			out = append(out, d)
		}
	}
	return out
}
