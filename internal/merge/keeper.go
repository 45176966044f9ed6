package merge

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	gohash "hash"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/util/logkey"
	"github.com/daybook/daybook/internal/util/words"
)

// Window is how long an appended entry is guarded against a stale copy
// saved over it: an editor's buffer or a synced copy older than that is
// taken as the person's version.
const Window = 7 * 24 * time.Hour

// Settle is how long a day file must be left unchanged before entries a
// stale copy dropped are appended to it again, and how long one that is
// empty or gone is left alone before it is merged: editors that truncate
// and then write, or rename the old file away and then write the new one,
// leave it so for a moment, and one that stalls between two writes leaves
// half a file, which looks like a stale copy. An editor writes its second
// part at its own offset, over what was appended meanwhile.
const Settle = 2 * time.Second

// maxSettles bounds an append's wait: when a day file keeps changing for
// this many Settle times, the new entries wait in the day's pending file
// instead (acknowledged, synced) and join the day once it settles. Nothing
// is ever merged into, or appended to, a file that has not settled.
const maxSettles = 10

// A Keeper appends entries to day files and merges what others wrote to
// them. Every process that appends to a data dir goes through one (the
// CLI's and the daemon's), so that the base on disk knows every append.
// Its work on a day is done under the day file's lock, which appends of
// every process take; nothing is held across days.
type Keeper struct {
	root string
	loc  func() *time.Location
	log  *slog.Logger
	now  func() time.Time

	// Settle overrides the package's Settle (tests); Again is called, after
	// Settle, with the days that were empty or gone when merged.
	settle time.Duration
	again  func([]date.Date)

	mu     sync.Mutex
	timers map[date.Date]*time.Timer
	closed bool
}

// Options configure a Keeper; zero values take defaults.
type Options struct {
	Loc    func() *time.Location // the zone entries' days and times are taken in
	Log    *slog.Logger
	Now    func() time.Time
	Settle time.Duration
	// Again is called, Settle after a merge found a day's file empty or
	// gone, with those days: the daemon passes them to Changed again. Nil
	// looks again only at the next change.
	Again func([]date.Date)
}

// New returns a Keeper for the data dir root.
func New(root string, o Options) *Keeper {
	if o.Loc == nil {
		o.Loc = func() *time.Location { return time.Local }
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Settle <= 0 {
		o.Settle = Settle
	}
	return &Keeper{root: root, loc: o.Loc, log: o.Log.With(logkey.System, "merge"), now: o.Now,
		settle: o.Settle, again: o.Again, timers: map[date.Date]*time.Timer{}}
}

// Close stops the timers of days waiting to settle.
func (k *Keeper) Close() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.closed = true
	for d, t := range k.timers {
		t.Stop()
		delete(k.timers, d)
	}
}

// Append appends entries to their day files, one locked write per day
// (dayfiles.ByDay, LockDay, and Locked.Append with ours not nil), and records them in each
// day's base, under the day's lock. A change to the file that was not
// merged yet is merged first.
func (k *Keeper) Append(entries []dayfiles.NewEntry, ours map[string]int) ([]dayfiles.Written, error) {
	batches, err := dayfiles.ByDay(k.loc(), entries)
	if err != nil {
		return nil, err
	}
	out := make([]dayfiles.Written, len(entries))
	for _, b := range batches {
		ws, err := k.appendDay(b, ours)
		if errors.Is(err, dayfiles.ErrDayFull) {
			ws, err = k.appendStubs(b, entries, ours)
		}
		if err != nil {
			return out, err
		}
		for j, i := range b.Index {
			out[i] = ws[j]
		}
	}
	return out, nil
}

// appendStubs appends b's entries to a full day (dayfiles.ErrDayFull) as
// stubs: each entry's whole text goes to a rest file, and the day takes
// its start and the link (dayfiles.Stub).
func (k *Keeper) appendStubs(b dayfiles.Batch, entries []dayfiles.NewEntry, ours map[string]int) ([]dayfiles.Written, error) {
	stubs := dayfiles.Batch{Date: b.Date, Index: b.Index}
	for _, i := range b.Index {
		rel, err := dayfiles.WriteRest(k.root, b.Date, entries[i].Text)
		if err != nil {
			return nil, fmt.Errorf("appending to the full day file %s: %w", dayfiles.RelPath(b.Date), err)
		}
		stubs.Lines = append(stubs.Lines, dayfiles.Stub(entries[i], rel).Format(k.loc()))
	}
	k.log.Warn("the day file is full; its new entries are stubs linking to their text in rest/",
		"day", b.Date.String(), "entries", len(b.Index))
	return k.appendDay(stubs, ours)
}

func (k *Keeper) appendDay(b dayfiles.Batch, ours map[string]int) ([]dayfiles.Written, error) {
	// The append waits for a file that another writer changed a moment
	// ago to settle, so that it does not land inside a save under way
	// (an editor's next write, at its own offset, would go over it);
	// bounded: then the entries wait in the pending file.
	deadline := time.Now().Add(maxSettles * k.settle)
	for {
		// Entries that waited (for a conflict to be resolved, for the
		// file to settle) go first.
		k.flushPending(b.Date)
		ws, wait, err := k.appendOnce(b, ours, time.Now().After(deadline))
		if !wait {
			return ws, err
		}
		time.Sleep(k.settle / 10) // polls the file until it settles: nothing reports that
	}
}

// appendOnce is appendDay under the locks; wait says the file is not
// settled and nothing was written: look again a moment later. With
// late, the wait has lasted long enough: the entries go to the day's
// pending file instead.
func (k *Keeper) appendOnce(b dayfiles.Batch, ours map[string]int, late bool) ([]dayfiles.Written, bool, error) {
	unlock, err := lockDay(k.root, b.Date)
	if err != nil {
		// The append itself says what is wrong if the data dir is not
		// writable; a state/ that alone is not does not stop it.
		k.log.Warn("appending without the merge lock", "day", b.Date.String(), "err", err)
		unlock = func() {}
	}
	defer unlock()
	l, err := dayfiles.LockDay(k.root, b.Date, true)
	if err != nil {
		return nil, false, err
	}
	defer l.Close()
	if dayfiles.ConflictLine(l.Content()) > 0 {
		ws, err := k.appendPending(b, "the day file holds conflict markers; the new entries wait in a pending file until they are resolved")
		return ws, false, err
	}
	st, end, wait, err := k.base(l)
	if wait && late && ours == nil {
		ws, err := k.appendPending(b, "the day file keeps changing (a writer that takes no lock, an editor saving); the new entries wait in a pending file until it settles")
		return ws, false, err
	}
	if wait && late {
		// An import tells which entries a day file holds already: it
		// needs the file itself. Importing again adds only what is missing.
		return nil, false, fmt.Errorf("appending to %s: nothing was written: the file keeps changing (an editor saving it?); run the import again once it is left alone",
			dayfiles.RelPath(b.Date))
	}
	if wait {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("appending to %s: nothing was written: %w", dayfiles.RelPath(b.Date), err)
	}
	ws, err := k.appendRecorded(l, st, end, b.Lines, ours)
	if errors.Is(err, errChanged) {
		return nil, true, nil
	}
	return ws, false, err
}

// errChanged says the day file changed between the merge and the write:
// nothing was written, look again once it settles.
var errChanged = errors.New("the day file changed while appending")

// base returns the base of l's day, merged with l's content, and the
// length of its log, after which the next records go. When the file is as
// daybook last knew it, that is the log's last head alone (its size does
// not matter); otherwise the whole base is read, merged (mergeLocked) and
// written anew. An error says the base could not be written: nothing must
// be appended then, as nothing would protect it. wait says the merge would
// decide on a file that is not settled (mergeLocked): nothing was done.
func (k *Keeper) base(l *dayfiles.Locked) (st *dayState, end int64, wait bool, err error) {
	if hd, end, ok := readHead(k.root, l.Date); ok {
		h := sha256.New()
		h.Write(l.Content())
		if hex.EncodeToString(h.Sum(nil)) == hd.Hash {
			return &dayState{Hash: hd.Hash, Len: hd.Len, Next: hd.Next, Ino: hd.Ino, hashed: h}, end, false, nil
		}
	}
	st, err = load(k.root, l.Date)
	if err != nil {
		k.log.Warn("the merge base is unreadable; starting a new one", "err", err)
	}
	st.resolve(dayfiles.RelPath(l.Date), l.Date, l.Content())
	// A file that changed a moment ago, empty (truncated) or not, may be
	// half written by a writer that takes no lock: an entry appended now
	// would land inside its save and be overwritten by its next write.
	if r := k.mergeLocked(l, st); r.settle {
		return nil, 0, true, nil
	}
	st.prune(k.now().Add(-Window))
	end, err = st.save(k.root, l.Date)
	if err != nil {
		return nil, 0, false, err
	}
	return st, end, false, nil
}

// appendRecorded appends the formatted entries to l's file (as
// Locked.Append, ours as there), recording them in the base first: the
// entries and a head go to the base's log, synced, after its first end
// bytes, then the entries to the file. When the base cannot be written
// (a full disk), nothing is appended and the error says so: an entry the
// base does not know would be taken for the person's deletion once a
// stale copy is saved over it. When the file cannot be written, the
// records are cut off again.
func (k *Keeper) appendRecorded(l *dayfiles.Locked, st *dayState, end int64, lines []string, ours map[string]int) ([]dayfiles.Written, error) {
	p, err := l.Plan(lines, ours)
	if err != nil {
		return nil, err
	}
	if p.Empty() {
		return p.Written, nil
	}
	now := k.now()
	var es []appended
	for i, w := range p.Written {
		if w.ID != "" {
			es = append(es, appended{ID: w.ID, Batch: st.Next, At: now, Lines: lines[i]})
		}
	}
	// The file's hash after the append: from the hash of its content
	// taken by base when it has it (hashing a big day twice costs more
	// than the rest of the base's part of an append).
	var h gohash.Hash
	if c, ok := st.hashed.(gohash.Cloner); ok {
		h, _ = c.Clone()
	}
	if h == nil {
		h = sha256.New()
		h.Write(l.Content())
	}
	h.Write([]byte(p.Added()))
	hd := head{Hash: hex.EncodeToString(h.Sum(nil)), Len: int64(len(l.Content()) + len(p.Added())), Next: st.Next + 1, Ino: l.Inode()}
	undo, at, err := appendLog(k.root, l.Date, end, es)
	if err != nil {
		return nil, fmt.Errorf("recording the new entries in the merge base, which guards them against a stale copy saved over them; nothing was written to %s: %w",
			dayfiles.RelPath(l.Date), err)
	}
	// A writer that takes no lock may have started a save while the
	// records were synced: write nothing into it.
	if !l.Unchanged() {
		if uerr := undo(); uerr != nil {
			k.log.Error("an append failed and its entries stay in the merge base until the next merge drops them", "day", l.Date.String(), "err", uerr)
		}
		return nil, errChanged
	}
	if err := l.Write(p); err != nil {
		if uerr := undo(); uerr != nil {
			k.log.Error("an append failed and its entries stay in the merge base until the next merge drops them", "day", l.Date.String(), "err", uerr)
		}
		return nil, err
	}
	if err := appendHead(k.root, l.Date, at, hd); err != nil {
		// Not acknowledged: nothing of it stays.
		err = fmt.Errorf("recording the new entries in the merge base, which guards them against a stale copy saved over them; nothing was written to %s: %w",
			dayfiles.RelPath(l.Date), err)
		if uerr := l.Undo(p); uerr != nil {
			return nil, fmt.Errorf("%w; and cutting the day file back failed, so the entries are there unacknowledged: %v", err, uerr)
		}
		if uerr := undo(); uerr != nil {
			k.log.Error("an append failed and its entries stay in the merge base until the next merge drops them", "day", l.Date.String(), "err", uerr)
		}
		return nil, err
	}
	st.Appended = append(st.Appended, es...)
	st.Hash, st.Len, st.Next, st.Ino, st.hashed = hd.Hash, hd.Len, hd.Next, hd.Ino, nil
	return p.Written, nil
}

// Changed merges the days whose files changed on disk without daybook, and
// their conflict copies, and returns the days it appended to.
func (k *Keeper) Changed(days []date.Date) []date.Date {
	var wrote, wait []date.Date
	for _, d := range days {
		w, settle := k.changedDay(d)
		if cw, cs := k.mergeCopies(d); cw {
			w = true
		} else if cs {
			settle = true
		}
		if pw, ps := k.flushPending(d); pw {
			w = true
		} else if ps {
			settle = true
		}
		if w {
			wrote = append(wrote, d)
		}
		if settle {
			wait = append(wait, d)
		}
	}
	k.later(wait)
	return wrote
}

// changedDay merges d's file against its base.
func (k *Keeper) changedDay(d date.Date) (wrote, settle bool) {
	if !hasBase(k.root, d) {
		return false, false // daybook appended nothing lately: every change is a person's
	}
	if hd, _, ok := readHead(k.root, d); ok {
		if data, err := os.ReadFile(dayfiles.Path(k.root, d)); err == nil && hash(data) == hd.Hash {
			return false, false // daybook's own append
		}
	}
	unlock, err := lockDay(k.root, d)
	if err != nil {
		k.log.Warn("cannot merge the day file", "day", d.String(), "err", err)
		return false, false
	}
	defer unlock()
	l, err := dayfiles.LockDay(k.root, d, false)
	if errors.Is(err, os.ErrNotExist) {
		return false, true
	}
	if err != nil {
		k.log.Warn("cannot merge the day file", "day", d.String(), "err", err)
		return false, false
	}
	defer l.Close()
	// Read under the lock: an append in between updates the base.
	st, err := load(k.root, d)
	if err != nil {
		k.log.Warn("cannot merge without the base; keeping the file as it is", "day", d.String(), "err", err)
		return false, false
	}
	resolved := len(st.pending) > 0
	st.resolve(dayfiles.RelPath(d), d, l.Content())
	if len(st.Appended) == 0 && !resolved {
		return false, false
	}
	was := st.Hash
	r := k.mergeLocked(l, st)
	if r.settle {
		return false, true
	}
	if st.Hash == was && !r.wrote && !resolved {
		return false, false
	}
	if _, err := st.save(k.root, d); err != nil {
		k.log.Warn("saving the merge base", "day", d.String(), "err", err)
	}
	return r.wrote, false
}

// hasBase reports whether d has a base on disk.
func hasBase(root string, d date.Date) bool {
	for _, p := range []string{logPath(root, d), statePath(root, d)} {
		if _, err := os.Stat(p); err == nil {
			return true
		}
	}
	return false
}

// later calls k.again with days after the settle time.
func (k *Keeper) later(days []date.Date) {
	if len(days) == 0 || k.again == nil {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.closed {
		return
	}
	for _, d := range days {
		if t, ok := k.timers[d]; ok {
			t.Stop()
		}
		k.timers[d] = time.AfterFunc(k.settle, func() {
			k.mu.Lock()
			delete(k.timers, d)
			closed := k.closed
			k.mu.Unlock()
			if !closed {
				k.again([]date.Date{d})
			}
		})
	}
}

// CatchUp merges every day with a base whose file changed since daybook
// last knew it, as after a restart (the watcher reports only what changes
// while it runs), and every conflict copy under days/. It returns the days
// it appended to.
func (k *Keeper) CatchUp() []date.Date {
	seen := map[date.Date]bool{}
	var days []date.Date
	for _, d := range stateDays(k.root) {
		seen[d] = true
		days = append(days, d)
	}
	for _, c := range ConflictCopies(k.root) {
		if !seen[c.Date] {
			seen[c.Date] = true
			days = append(days, c.Date)
		}
	}
	for _, d := range pendingDays(k.root) {
		if !seen[d] {
			seen[d] = true
			days = append(days, d)
		}
	}
	return k.Changed(days)
}

type mergeResult struct {
	wrote  bool // entries were appended again
	settle bool // the file has not settled: look again later
}

// mergeLocked merges l's content against st, the base, and updates st: the
// three-way merge. The writer of the file started from some version
// daybook wrote; as daybook only ever appends, that version held exactly
// the entries daybook appended up to some append. The last append with an
// entry still in the file is taken as that version: entries of it and of
// earlier appends that are missing were removed or changed by the writer,
// who had them, and stay so; entries of later appends that are missing
// were never in the writer's copy and are appended again, once. When the
// writer removed the newest appends themselves, that cannot be told from a
// stale copy: they come back once, with a warning, and a second removal
// sticks, unless the file shows it was made from a copy older than their
// return: it still starts with the stale copy they were appended to, or it
// lacks entries appended after them too.
//
// Nothing is decided on a file that has not settled: one written in place
// since daybook last knew it (the same inode), or empty, is merged only
// once it has been left unchanged for Settle (Locked.Quiet); one saved by
// rename, once it is unchanged since it was read under the lock. Until
// then nothing changes and the result says to look again later.
func (k *Keeper) mergeLocked(l *dayfiles.Locked, st *dayState) mergeResult {
	// An append is only added to the log: what fell out of the Window
	// since the base was last written anew goes now.
	st.prune(k.now().Add(-Window))
	content := l.Content()
	h := hash(content)
	if h == st.Hash {
		st.know(l)
		return mergeResult{}
	}
	if r, done := k.beforeMerge(l, st, content); done {
		return r
	}
	path := dayfiles.RelPath(l.Date)
	if line := dayfiles.ConflictLine(content); line > 0 {
		k.log.Warn("the day file holds conflict markers; merging it when they are resolved", "path", path, "line", line)
		return mergeResult{}
	}
	day, err := dayfiles.Parse(path, l.Date, content)
	if err != nil {
		k.log.Warn("cannot merge a day file that does not parse; keeping it as it is", "path", path, "err", err)
		return mergeResult{}
	}
	keep, lost := k.triage(path, content, st.Appended, appendedIn(day, st.Appended))
	if len(lost) > 0 && !l.Unchanged() {
		k.log.Info("entries daybook appended are missing from a file that changed a moment ago; appending them again once it settles",
			"path", path, "entries", len(lost))
		return mergeResult{settle: true}
	}
	st.Appended = keep
	var r mergeResult
	if len(lost) > 0 {
		var ok bool
		if r, ok = k.appendAgain(l, st, path, content, h, lost); !ok {
			return r
		}
	}
	st.know(l)
	st.prune(k.now().Add(-Window))
	return r
}

// beforeMerge decides what needs no merge of a file whose content changed
// since st: a file not settled yet (look again later), a new day file or
// one with nothing appended (only known), and one emptied and left so (the
// person's deletion of the day, kept); done says it decided.
func (k *Keeper) beforeMerge(l *dayfiles.Locked, st *dayState, content []byte) (r mergeResult, done bool) {
	// Nothing is decided on a file another writer changed a moment ago:
	// an editor that truncates, writes part, stalls and writes the rest
	// leaves an empty or half file that looks like a stale copy (missing
	// entries), or like a deliberate deletion of older entries when a
	// piece of what daybook appended meanwhile survives in it; and what
	// is appended to it lands inside the save, under its next write. A
	// file saved by rename (another inode than daybook last knew) was
	// whole when it took the path, unless it is empty (an editor that
	// moved the old file away and writes a new one). A file that differs
	// only by daybook's own append, cut short before its head was
	// recorded (a killed process), is not another writer's.
	// An empty file must be left so longer, maxSettles times Settle, to be
	// taken for the person's deletion of every entry: a writer paused
	// between its truncate and its first write (a busy machine
	// deschedules it) leaves one too.
	empty := len(bytes.TrimSpace(content)) == 0
	if empty && len(st.Appended) == 0 {
		st.know(l) // a new day file: nothing to decide, nothing to guard
		return mergeResult{}, true
	}
	inPlace := st.Ino == 0 || st.Ino == l.Inode() || empty
	if inPlace && !st.own && !l.Quiet(k.settle) || empty && !l.Quiet(maxSettles*k.settle) || !l.Unchanged() {
		return mergeResult{settle: true}, true
	}
	if len(st.Appended) == 0 {
		st.know(l)
		return mergeResult{}, true
	}
	if empty {
		// Emptied, and left so: the person's deletion of the day.
		path := dayfiles.RelPath(l.Date)
		for _, a := range st.Appended {
			k.log.Warn("an entry daybook appended was removed or changed by hand; keeping that", "path", path, "id", a.ID, "text", clip(a.Lines, 80))
		}
		st.Appended = nil
		st.know(l)
		return mergeResult{}, true
	}
	return mergeResult{}, false
}

// inFile is what a day file says of the entries daybook appended to it.
type inFile struct {
	present map[string]bool // the ids of the file's entries
	// theirs holds the text part of the ids of entries nobody appended: a
	// person's.
	theirs map[string]bool
	// last is the newest append with an entry still in the file, -1 for
	// none: the version the writer started from.
	last int64
	// lastMissing is the newest append with an entry missing, -1 for none,
	// to tell a stale copy of a stale copy from a deliberate deletion of
	// an entry appended again.
	lastMissing int64
}

// appendedIn reads day, the parsed file, against what daybook appended.
func appendedIn(day *dayfiles.Day, appended []appended) inFile {
	f := inFile{present: map[string]bool{}, theirs: map[string]bool{}, last: -1, lastMissing: -1}
	for _, e := range day.Entries {
		f.present[e.ID] = true
	}
	ours := map[string]bool{}
	for _, a := range appended {
		ours[a.ID] = true
		if f.present[a.ID] {
			f.last = max(f.last, a.Batch)
		} else {
			f.lastMissing = max(f.lastMissing, a.Batch)
		}
	}
	for _, e := range day.Entries {
		if !ours[e.ID] {
			f.theirs[dayfiles.EntryID(e.ID).TextHash()] = true
		}
	}
	return f
}

// triage sorts what daybook appended to the file at path into what it
// keeps in the base (still in the file) and what a stale copy lost (to
// append again); the rest the writer removed, changed or moved, on
// purpose, and it says so.
func (k *Keeper) triage(path string, content []byte, appended []appended, f inFile) (keep, lost []appended) {
	for _, a := range appended {
		switch {
		case f.present[a.ID]:
			keep = append(keep, a)
		case a.Batch <= f.last:
			k.log.Warn("an entry daybook appended was removed or changed by hand; keeping that", "path", path, "id", a.ID, "text", clip(a.Lines, 80))
		case f.theirs[dayfiles.EntryID(a.ID).TextHash()]:
			k.log.Info("an entry daybook appended was moved to another time by hand; keeping that", "path", path, "id", a.ID)
		case a.Again && f.lastMissing <= a.Batch && !startsWith(content, a.StaleLen, a.StaleHash):
			k.log.Warn("an entry appended again after a stale save was removed again; keeping the removal", "path", path, "id", a.ID, "text", clip(a.Lines, 80))
		default:
			lost = append(lost, a)
		}
	}
	return keep, lost
}

// appendAgain appends the entries lost to a stale copy again, as one
// append, and records them in st with the stale copy (content, of hash h)
// they came back to. ok is false when nothing more is to be done on this
// look: a save began meanwhile (look again later), or the write failed
// (they stay in the base).
func (k *Keeper) appendAgain(l *dayfiles.Locked, st *dayState, path string, content []byte, h string, lost []appended) (r mergeResult, ok bool) {
	lines := make([]string, len(lost))
	for i, a := range lost {
		lines[i] = a.Lines
	}
	p, err := l.Plan(lines, nil)
	if err == nil && !l.Unchanged() {
		// A save began while the file was parsed and merged: what is
		// appended now would land inside it. Nothing was decided.
		return mergeResult{settle: true}, false
	}
	if err == nil {
		err = l.Write(p)
	}
	if err != nil {
		k.log.Error("appending again entries a stale copy dropped; they are kept in the merge base", "path", path, "err", err)
		st.Appended = append(st.Appended, lost...)
		return mergeResult{}, false
	}
	now := k.now()
	staleLen, staleHash := len(content), h
	for i, w := range p.Written {
		a := lost[i]
		a.StaleLen, a.StaleHash = staleLen, staleHash
		k.log.Warn("an acknowledged entry is missing from its day file, saved over by a copy made before it was written (an editor's buffer, a synced file); appending it again",
			"path", path, "line", w.Line, "id", a.ID, "text", clip(a.Lines, 60))
		a.ID, a.Batch, a.Again = w.ID, st.Next, true
		st.Appended = append(st.Appended, a)
		st.Restored = append(st.Restored, restored{ID: w.ID, At: now, Text: clip(a.Lines, 60)})
	}
	st.Next++
	return mergeResult{wrote: true}, true
}

// startsWith reports whether content is longer than n bytes and begins
// with the n bytes whose hash is h: something was added to that copy.
func startsWith(content []byte, n int, h string) bool {
	return h != "" && n < len(content) && hash(content[:n]) == h
}

// clip shortens s to n bytes at most (words.Clip), on one line.
func clip(s string, n int) string { return words.Clip(strings.Join(strings.Fields(s), " "), n) }
