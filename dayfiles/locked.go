package dayfiles

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/util/filelock"
)

// A Locked is a day file held under its lock (the one every append takes),
// with its content as read under the lock. What is done through it, reading
// and appending, is safe against other appends of any process; an editor,
// which takes no lock, can still replace the file, and a later LockDay sees
// that.
type Locked struct {
	Date    date.Date
	Path    string
	root    string
	f       *os.File
	content []byte
}

// LockDay locks d's file under the data dir root, waiting for the lock, and
// reads it. With create, a missing file (and its folders) is created empty;
// without, a missing file is an error for which errors.Is(err,
// os.ErrNotExist) holds. A file replaced by an editor's rename-save while
// waiting for the lock is opened again. Close releases the lock.
func LockDay(root string, d date.Date, create bool) (*Locked, error) {
	path := Path(root, d)
	flags := os.O_RDWR | os.O_APPEND
	if create {
		flags |= os.O_CREATE
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, fmt.Errorf("creating folder for %s: %w", path, err)
		}
	}
	if err := checkNoLinks(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("appending: %w", err)
	}
	for attempt := 0; ; attempt++ {
		f, err := os.OpenFile(path, flags, 0o644)
		if err != nil {
			return nil, fmt.Errorf("opening %s: %w", path, err)
		}
		if err := filelock.Lock(f); err != nil {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		// An editor may have replaced the file (write new, rename over) while
		// we waited: work on what is at the path now, not on the old inode.
		if cur, err := os.Stat(path); err != nil || !sameFile(f, cur) {
			f.Close()
			if attempt < 20 {
				continue
			}
			return nil, fmt.Errorf("locking %s: the file keeps being replaced", path)
		}
		old, err := io.ReadAll(io.NewSectionReader(f, 0, MaxFileSize+1))
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
		return &Locked{Date: d, Path: path, root: root, f: f, content: old}, nil
	}
}

// Content returns the file's content as read under the lock, with what
// Append added since. The caller must not change it.
func (l *Locked) Content() []byte { return l.content }

// Close releases the lock.
func (l *Locked) Close() error { return l.f.Close() }

func sameFile(f *os.File, fi os.FileInfo) bool {
	st, err := f.Stat()
	return err == nil && os.SameFile(st, fi)
}

// Append appends the formatted entries (NewEntry.Format) to the file.
//
// With ours not nil, it appends for an import: an entry the file already
// holds (the same time and text, whitespace aside, as entry ids compare
// them) is left out, as many times as the file holds it, so that importing
// the same file twice adds nothing the second time. A left-out entry's
// Written has no ID and Skipped set. An import written in several calls
// passes the same ours to each: it counts, by id without its "-n", the
// entries the earlier calls went through, so that an entry the file holds
// answers for one entry of the whole import, however it is cut into calls
// (two equal lines of an input are both written to a file that had
// neither, in one call or in two).
func (l *Locked) Append(entries []string, ours map[string]int) ([]Written, error) {
	p, err := l.Plan(entries, ours)
	if err != nil {
		return nil, err
	}
	if err := l.Write(p); err != nil {
		return nil, err
	}
	return p.Written, nil
}

// A Plan is what Append would add to a locked day file, worked out but not
// written: package merge records the new entries in its base first, then
// writes them (Write), so that no entry is in the file without its record.
type Plan struct {
	Written []Written // as Append returns them
	add     string    // the bytes to append
	old     int       // the file's length the plan was made for
}

// Empty reports whether the plan writes nothing (every entry of an import
// was in the file already).
func (p *Plan) Empty() bool { return p.add == "" }

// Added returns the bytes p appends to the file.
func (p *Plan) Added() string { return p.add }

// Plan works out what Append(entries, ours) writes, without writing it.
func (l *Locked) Plan(entries []string, ours map[string]int) (*Plan, error) {
	path, d, old := l.Path, l.Date, l.content
	ws := make([]Written, len(entries))
	keep := make([]int, len(entries)) // the indexes of entries to write
	for i := range keep {
		keep[i] = i
	}
	var err error
	if ours != nil {
		if keep, err = notPresent(path, d, old, entries, ours); err != nil {
			return nil, err
		}
		for i := range ws {
			ws[i] = Written{Date: d, Skipped: true}
		}
		if len(keep) == 0 {
			return &Plan{Written: ws, old: len(old)}, nil
		}
	}
	var chunk strings.Builder
	for _, i := range keep {
		chunk.WriteString(entries[i])
	}
	add, news, err := appendText(path, d, old, chunk.String(), len(keep))
	if err != nil {
		return nil, err
	}
	rel := RelPath(d)
	for k, e := range news {
		ws[keep[k]] = Written{ID: e.ID, Date: d, Path: path, Rel: rel, Line: e.Line}
	}
	return &Plan{Written: ws, add: add, old: len(old)}, nil
}

// Write appends what p planned, made by Plan on l with nothing written
// since. The write is one write(2) followed by fsync; on failure the file
// is cut back to what it was, and nothing of it stays.
func (l *Locked) Write(p *Plan) error {
	path, old := l.Path, l.content
	if p.old != len(old) {
		return fmt.Errorf("appending to %s: the plan was made for %d bytes, the file holds %d (a bug)", path, p.old, len(old))
	}
	if p.add == "" {
		return nil
	}
	if _, err := l.f.WriteString(p.add); err != nil {
		// A full disk can take part of the write: cut it off, so that no
		// half entry is left for the next append to build on.
		l.f.Truncate(int64(len(old)))
		return fmt.Errorf("appending to %s: %w", path, err)
	}
	if err := l.f.Sync(); err != nil {
		l.f.Truncate(int64(len(old))) // not acknowledged: not kept
		return fmt.Errorf("syncing %s: %w", path, err)
	}
	if len(old) == 0 {
		syncDir(filepath.Dir(path))
	}
	l.content = append(old[:len(old):len(old)], p.add...)
	return nil
}

// Undo cuts the file back to what it was before p, written by Write, was:
// what must not stand when the record that guards it could not be
// completed.
func (l *Locked) Undo(p *Plan) error {
	if p.add == "" || len(l.content) != p.old+len(p.add) {
		return nil
	}
	if err := l.f.Truncate(int64(p.old)); err != nil {
		return fmt.Errorf("cutting %s back: %w", l.Path, err)
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", l.Path, err)
	}
	l.content = l.content[:p.old:p.old]
	return nil
}

// Inode returns the inode number of the file l holds, or 0 where the
// system does not say: a file saved by rename over the day file has
// another, one written in place the same.
func (l *Locked) Inode() uint64 {
	fi, err := l.f.Stat()
	if err != nil {
		return 0
	}
	return inode(fi)
}

// Quiet reports whether the file is Unchanged and was last modified window
// ago or longer: a writer that takes no lock is not in the middle of a save
// (an editor that truncates, writes part, pauses and writes the rest).
func (l *Locked) Quiet(window time.Duration) bool {
	fi, err := l.f.Stat()
	return err == nil && l.Unchanged() && time.Since(fi.ModTime()) >= window
}

// Unchanged reports whether the file at l's path is still the one l locked,
// with the length l read or wrote: a writer that takes no lock (an editor
// saving in two writes) has not changed it since.
func (l *Locked) Unchanged() bool {
	fi, err := l.f.Stat()
	if err != nil || fi.Size() != int64(len(l.content)) {
		return false
	}
	cur, err := os.Stat(l.Path)
	return err == nil && os.SameFile(fi, cur)
}

// LockPath takes the same exclusive lock appends take, on the file at path
// (created if missing), waiting for it, and returns its release. Package
// merge locks a file that is never replaced, so that two processes do not
// both work on a day whose file an editor replaced between their opens.
func LockPath(path string) (func(), error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("creating folder for %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	if err := filelock.Lock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return func() { f.Close() }, nil
}
