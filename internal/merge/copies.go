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

// AsideDir is where conflict copies go once merged into their days:
// "state/conflicts/2026/11/24.sync-conflict-20261124-101500-ABC.md".
const AsideDir = "state/conflicts"

// A Copy is a conflict copy of a day file that a sync or merge tool left
// beside it (see dayfiles.ConflictCopyDay).
type Copy struct {
	Date date.Date
	Path string
	Rel  string // relative to the data dir, slashed
}

// ConflictCopies lists the conflict copies under root's days/.
func ConflictCopies(root string) []Copy {
	var out []Copy
	days := filepath.Join(root, dayfiles.DaysDir)
	years, _ := os.ReadDir(days)
	for _, y := range years {
		months, _ := os.ReadDir(filepath.Join(days, y.Name()))
		for _, m := range months {
			out = append(out, copiesIn(root, filepath.Join(days, y.Name(), m.Name()), nil)...)
		}
	}
	return out
}

// copiesIn lists the conflict copies in a month folder, of day only when
// day is not nil.
func copiesIn(root, dir string, day *date.Date) []Copy {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []Copy
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		rel, err := filepath.Rel(root, p)
		if err != nil {
			continue
		}
		rel = filepath.ToSlash(rel)
		if d, ok := dayfiles.ConflictCopyDay(rel); ok && (day == nil || d == *day) {
			out = append(out, Copy{Date: d, Path: p, Rel: rel})
		}
	}
	return out
}

// mergeCopies merges d's conflict copies into d's file: their entries the
// file lacks are appended (a copy has no base to show a deletion, so none
// is guessed: both sides' entries are kept) and recorded as daybook's, and
// the copy is moved to AsideDir. It reports whether it appended, and
// whether a copy waits for the day file to settle.
func (k *Keeper) mergeCopies(d date.Date) (wrote, wait bool) {
	copies := copiesIn(k.root, filepath.Dir(dayfiles.Path(k.root, d)), &d)
	for _, c := range copies {
		n, err := k.mergeCopy(c)
		if errors.Is(err, errChanged) {
			wait = true
			continue
		}
		if err != nil {
			k.log.Warn("cannot merge a conflict copy; leaving it where it is", "path", c.Rel, "err", err)
			continue
		}
		wrote = wrote || n > 0
	}
	return wrote, wait
}

func (k *Keeper) mergeCopy(c Copy) (int, error) {
	data, err := os.ReadFile(c.Path)
	if err != nil {
		return 0, err
	}
	if line := dayfiles.ConflictLine(data); line > 0 {
		return 0, fmt.Errorf("line %d: it holds conflict markers", line)
	}
	theirs, err := dayfiles.Parse(c.Rel, c.Date, data)
	if err != nil {
		return 0, err
	}
	unlock, err := lockDay(k.root, c.Date)
	if err != nil {
		return 0, err
	}
	defer unlock()
	l, err := dayfiles.LockDay(k.root, c.Date, true)
	if err != nil {
		return 0, err
	}
	defer l.Close()
	if line := dayfiles.ConflictLine(l.Content()); line > 0 {
		return 0, fmt.Errorf("its day file holds conflict markers at line %d", line)
	}
	st, end, wait, err := k.base(l)
	if wait {
		return 0, errChanged
	}
	if err != nil {
		return 0, err
	}
	lines, err := missing(l.Content(), c.Date, data, theirs)
	if err != nil {
		return 0, err
	}
	if len(lines) > 0 {
		if _, err := k.appendRecorded(l, st, end, lines, nil); err != nil {
			return 0, err
		}
	}
	aside, err := moveAside(k.root, c)
	if err != nil {
		return len(lines), err
	}
	k.log.Warn("merged a conflict copy into its day file and moved it aside", "path", c.Rel, "entries_added", len(lines),
		"moved_to", aside, "note", "text outside entries is not merged: compare the copy by hand if it had any")
	return len(lines), nil
}

// missing returns, formatted as they stand in data, the entries of theirs
// (parsed from data) that ours, a day file's content, lacks: compared by
// id without the "-n" of repeats, each entry of ours answering for one.
func missing(ours []byte, d date.Date, data []byte, theirs *dayfiles.Day) ([]string, error) {
	have := map[string]int{}
	if len(ours) > 0 {
		day, err := dayfiles.Parse("", d, ours)
		if err != nil {
			return nil, err
		}
		for _, e := range day.Entries {
			have[dayfiles.EntryID(e.ID).Base()]++
		}
	}
	src := strings.Split(string(data), "\n")
	var out []string
	for _, e := range theirs.Entries {
		b := dayfiles.EntryID(e.ID).Base()
		if have[b] > 0 {
			have[b]--
			continue
		}
		out = append(out, entryLines(src, e))
	}
	return out, nil
}

// entryLines returns e's lines from src, the lines of its file, ending in a
// newline, without trailing blank lines.
func entryLines(src []string, e dayfiles.Entry) string {
	end := min(e.EndLine, len(src))
	for end > e.Line && strings.TrimSpace(src[end-1]) == "" {
		end--
	}
	var b strings.Builder
	for _, l := range src[e.Line-1 : end] {
		b.WriteString(strings.TrimRight(l, "\r"))
		b.WriteByte('\n')
	}
	return b.String()
}

// moveAside moves c under AsideDir, keeping its name (with a number added
// when one of that name is there already), and returns the new relative path.
func moveAside(root string, c Copy) (string, error) {
	rel := strings.TrimPrefix(c.Rel, dayfiles.DaysDir+"/")
	dst := filepath.Join(root, filepath.FromSlash(AsideDir), filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return "", fmt.Errorf("moving aside: %w", err)
	}
	for i := 2; ; i++ {
		if _, err := os.Lstat(dst); os.IsNotExist(err) {
			break
		}
		dst = filepath.Join(root, filepath.FromSlash(AsideDir), filepath.FromSlash(rel)+fmt.Sprintf(".%d", i))
	}
	if err := os.Rename(c.Path, dst); err != nil {
		return "", fmt.Errorf("moving aside: %w", err)
	}
	out, _ := filepath.Rel(root, dst)
	return filepath.ToSlash(out), nil
}
