package merge

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	gohash "hash"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/util/atomicfile"
)

// StateDir is the folder under the data dir that holds the bases, one
// file per day, "state/merge/2026-11-24.log". It is not under days/, so
// sync tools and git that carry days/ do not carry it.
const StateDir = "state/merge"

// dayState is what daybook last knew of one day file.
type dayState struct {
	Hash     string     `json:"hash"`          // SHA-256 of the content daybook last wrote or merged
	Len      int64      `json:"len"`           // the length of that content
	Ino      uint64     `json:"ino,omitempty"` // the file's inode then, 0 if unknown
	Next     int64      `json:"next"`          // the number of the next append
	Appended []appended `json:"appended,omitempty"`
	Restored []restored `json:"restored,omitempty"` // appended again after a stale save, for status

	hashed gohash.Hash // holds the file's content as Hash says, when taken: not on disk
	// pending are the entries after the log's last head: an append whose
	// end the base does not know (resolve).
	pending []appended
	// own says the file is what the last head says plus, whole, the
	// pending append: the change is daybook's own append cut short after
	// its write (resolve), not another writer's save under way.
	own bool
}

// appended is an entry daybook appended, acknowledged to its writer.
type appended struct {
	ID    string    `json:"id"`
	Batch int64     `json:"batch"` // the append it came in; later appends have higher numbers
	At    time.Time `json:"at"`    // when it was acknowledged
	Lines string    `json:"lines"` // as written, to write again
	Again bool      `json:"again,omitempty"`
	// For an entry appended again: the length and hash of the stale copy
	// it was appended to. A later save that still starts with that copy
	// was made from it, before the entry came back.
	StaleLen  int    `json:"stale_len,omitempty"`
	StaleHash string `json:"stale_hash,omitempty"`
}

// restored is an entry appended again, kept for status for a while.
type restored struct {
	ID   string    `json:"id"`
	At   time.Time `json:"at"`
	Text string    `json:"text"`
}

// The base of a day is a log, "state/merge/DAY.log", of JSON lines, each
// one record: an entry daybook appended, an entry appended again (for
// status), or a head, which commits the records before it and says what
// the day file holds after them (its hash and length, and the number of
// the next append). An append writes its entries, synced, before they go
// to the day file, and its head after: the cost of an append does not
// grow with the day. Entries after the last head are of an append that
// was cut short (a process killed between the writes): those the day file
// holds were written, and are daybook's; the others were not, and were
// never acknowledged (resolve). A merge, which drops entries from the
// base, writes the whole base anew (a compaction).
type record struct {
	Entry    *appended `json:"e,omitempty"`
	Restored *restored `json:"r,omitempty"`
	Head     *head     `json:"h,omitempty"`
}

// head is what a day's base says of its file after the records before it.
type head struct {
	Hash string `json:"hash"`
	Len  int64  `json:"len"`
	Next int64  `json:"next"`
	Ino  uint64 `json:"ino,omitempty"`
}

// lockDay takes the day's merge lock, on state/merge/DAY.lock: every
// change of the day's base, and every append, is made under it. The day
// file's own lock is not enough: an editor that replaces the file between
// two lockers' opens gives each a different file to lock.
func lockDay(root string, d date.Date) (func(), error) {
	return dayfiles.LockPath(filepath.Join(root, filepath.FromSlash(StateDir), d.String()+".lock"))
}

// logPath is where d's base is kept.
func logPath(root string, d date.Date) string {
	return filepath.Join(root, filepath.FromSlash(StateDir), d.String()+".log")
}

// statePath is where versions before the log kept d's base, one JSON
// object rewritten on every append. It is read when no log exists, and
// removed when the log is first written.
func statePath(root string, d date.Date) string {
	return filepath.Join(root, filepath.FromSlash(StateDir), d.String()+".json")
}

// load reads d's state; a missing base is an empty state, a broken one is
// an error (the caller then merges without a base: it keeps everything).
func load(root string, d date.Date) (*dayState, error) {
	p := logPath(root, d)
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return loadJSON(root, d)
	}
	if err != nil {
		return &dayState{}, fmt.Errorf("reading the merge base of %s: %w", d, err)
	}
	st, _, err := parseLog(p, data)
	return st, err
}

// parseLog replays a base's records and returns the state and the length
// of what its last head commits; the entries after it are st.pending. A
// line cut short (no newline) is left out.
func parseLog(p string, data []byte) (*dayState, int64, error) {
	st := &dayState{}
	var es []appended
	var rs []restored
	var end int64
	for n, off := 1, 0; off < len(data); n++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			break // cut short by a crash
		}
		line := data[off : off+i]
		off += i + 1
		var r record
		if err := json.Unmarshal(line, &r); err != nil {
			return &dayState{}, 0, fmt.Errorf("reading the merge base %s, line %d: %w", p, n, err)
		}
		switch {
		case r.Entry != nil:
			es = append(es, *r.Entry)
		case r.Restored != nil:
			rs = append(rs, *r.Restored)
		case r.Head != nil:
			st.Appended = append(st.Appended, es...)
			st.Restored = append(st.Restored, rs...)
			es, rs = es[:0], rs[:0]
			st.Hash, st.Len, st.Next, st.Ino = r.Head.Hash, r.Head.Len, r.Head.Next, r.Head.Ino
			end = int64(off)
		default:
			return &dayState{}, 0, fmt.Errorf("reading the merge base %s, line %d: not a record daybook writes", p, n)
		}
	}
	st.pending = es
	return st, end, nil
}

// resolve settles the pending entries against the day file's content:
// those it holds were written by an append cut short before its head, and
// are daybook's, kept as that append's; the others never reached the file
// and were never acknowledged, and go. A file that does not parse keeps
// them all, to be merged once it does.
func (st *dayState) resolve(rel string, d date.Date, content []byte) {
	if len(st.pending) == 0 {
		return
	}
	st.own = ownTail(content, st)
	present := map[string]bool{}
	if day, err := dayfiles.Parse(rel, d, content); err == nil {
		for _, e := range day.Entries {
			present[e.ID] = true
		}
	} else {
		for _, a := range st.pending {
			present[a.ID] = true
		}
	}
	for _, a := range st.pending {
		if present[a.ID] {
			st.Appended = append(st.Appended, a)
			st.Next = max(st.Next, a.Batch+1)
		}
	}
	st.pending = nil
}

// ownTail reports whether content is what st's head says the file held,
// followed by the pending entries, whole, after the newlines that
// separate them.
func ownTail(content []byte, st *dayState) bool {
	if st.Hash == "" || st.Len < 0 || int64(len(content)) <= st.Len || hash(content[:st.Len]) != st.Hash {
		return false
	}
	var lines strings.Builder
	for _, a := range st.pending {
		lines.WriteString(a.Lines)
	}
	tail, ok := strings.CutSuffix(string(content[st.Len:]), lines.String())
	return ok && strings.Trim(tail, "\n") == ""
}

// loadJSON reads a base as versions before the log kept it.
func loadJSON(root string, d date.Date) (*dayState, error) {
	data, err := os.ReadFile(statePath(root, d))
	if errors.Is(err, os.ErrNotExist) {
		return &dayState{}, nil
	}
	if err != nil {
		return &dayState{}, fmt.Errorf("reading the merge base of %s: %w", d, err)
	}
	var st dayState
	if err := json.Unmarshal(data, &st); err != nil {
		return &dayState{}, fmt.Errorf("reading the merge base %s: %w", statePath(root, d), err)
	}
	return &st, nil
}

// tailRead is how much of the end of a base readHead reads: a head line is
// about 150 bytes.
const tailRead = 4096

// readHead returns the last head of d's base and the length of the log up
// to its end, without reading the whole log; ok is false when the log's
// last line is not a whole head (no log, a base of the version before, a
// crash cut the last append short): the caller then loads the whole base.
func readHead(root string, d date.Date) (h head, end int64, ok bool) {
	f, err := os.Open(logPath(root, d))
	if err != nil {
		return head{}, 0, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return head{}, 0, false
	}
	n := min(fi.Size(), tailRead)
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, fi.Size()-n); err != nil {
		return head{}, 0, false
	}
	if buf[n-1] != '\n' {
		return head{}, 0, false
	}
	start := bytes.LastIndexByte(buf[:n-1], '\n') + 1
	if start == 0 && n < fi.Size() {
		return head{}, 0, false // a line longer than what was read
	}
	var r record
	if json.Unmarshal(buf[start:n-1], &r) != nil || r.Head == nil {
		return head{}, 0, false
	}
	return *r.Head, fi.Size(), true
}

// appendLog appends the entries of an append to d's base after its first
// end bytes (what its last head commits; a tail cut short by a crash
// goes), and syncs them. It returns an undo that cuts them off again, and
// the length of the log with them, after which their head goes
// (appendHead).
func appendLog(root string, d date.Date, end int64, es []appended) (undo func() error, after int64, err error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for i := range es {
		if err := enc.Encode(record{Entry: &es[i]}); err != nil {
			return nil, 0, err
		}
	}
	p := logPath(root, d)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return nil, 0, fmt.Errorf("writing the merge base: %w", err)
	}
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, 0, fmt.Errorf("writing the merge base: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, fmt.Errorf("writing the merge base %s: %w", p, err)
	}
	if fi.Size() != end {
		if err := f.Truncate(end); err != nil {
			return nil, 0, fmt.Errorf("writing the merge base %s: %w", p, err)
		}
	}
	if _, err := f.WriteAt(b.Bytes(), end); err != nil {
		f.Truncate(end)
		return nil, 0, fmt.Errorf("writing the merge base %s: %w", p, err)
	}
	if err := f.Sync(); err != nil {
		f.Truncate(end)
		return nil, 0, fmt.Errorf("syncing the merge base %s: %w", p, err)
	}
	if end == 0 {
		syncDir(filepath.Dir(p))
	}
	return func() error {
		if err := os.Truncate(p, end); err != nil {
			return fmt.Errorf("cutting the merge base %s back: %w", p, err)
		}
		return nil
	}, end + int64(b.Len()), nil
}

// appendHead appends h to d's base, after its first at bytes, once the
// append it closes is in the day file. It is not synced: a head lost to a
// power cut is found again from the day file (resolve).
func appendHead(root string, d date.Date, at int64, h head) error {
	line, err := json.Marshal(record{Head: &h})
	if err != nil {
		return err
	}
	p := logPath(root, d)
	f, err := os.OpenFile(p, os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("writing the merge base: %w", err)
	}
	defer f.Close()
	if _, err := f.WriteAt(append(line, '\n'), at); err != nil {
		f.Truncate(at)
		return fmt.Errorf("writing the merge base %s: %w", p, err)
	}
	return nil
}

// know records l's content as what daybook last knew of the day file.
func (st *dayState) know(l *dayfiles.Locked) {
	st.Hash, st.Len, st.Ino = hash(l.Content()), int64(len(l.Content())), l.Inode()
}

// save writes d's whole state as a new log, in place of the old by rename,
// synced; or removes it when it holds nothing to keep. It returns the
// length of the log written.
func (st *dayState) save(root string, d date.Date) (int64, error) {
	end, err := st.write(root, d)
	if err != nil {
		return 0, err
	}
	if err := os.Remove(statePath(root, d)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return 0, fmt.Errorf("removing the merge base of the version before: %w", err)
	}
	return end, nil
}

func (st *dayState) write(root string, d date.Date) (int64, error) {
	p := logPath(root, d)
	if len(st.Appended) == 0 && len(st.Restored) == 0 {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return 0, fmt.Errorf("removing the merge base: %w", err)
		}
		return 0, nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for i := range st.Appended {
		if err := enc.Encode(record{Entry: &st.Appended[i]}); err != nil {
			return 0, err
		}
	}
	for i := range st.Restored {
		if err := enc.Encode(record{Restored: &st.Restored[i]}); err != nil {
			return 0, err
		}
	}
	if err := enc.Encode(record{Head: &head{Hash: st.Hash, Len: st.Len, Next: st.Next, Ino: st.Ino}}); err != nil {
		return 0, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return 0, fmt.Errorf("writing the merge base: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(p), atomicfile.TempPattern)
	if err != nil {
		return 0, fmt.Errorf("writing the merge base: %w", err)
	}
	_, werr := f.Write(b.Bytes())
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		os.Remove(f.Name())
		return 0, fmt.Errorf("writing the merge base %s: %w", p, err)
	}
	if err := os.Rename(f.Name(), p); err != nil {
		os.Remove(f.Name())
		return 0, fmt.Errorf("writing the merge base %s: %w", p, err)
	}
	syncDir(filepath.Dir(p))
	return int64(b.Len()), nil
}

func syncDir(dir string) {
	if f, err := os.Open(dir); err == nil {
		f.Sync()
		f.Close()
	}
}

// prune drops what was acknowledged or restored before cutoff.
func (st *dayState) prune(cutoff time.Time) {
	k := 0
	for _, a := range st.Appended {
		if a.At.After(cutoff) {
			st.Appended[k] = a
			k++
		}
	}
	st.Appended = st.Appended[:k]
	k = 0
	for _, r := range st.Restored {
		if r.At.After(cutoff) {
			st.Restored[k] = r
			k++
		}
	}
	st.Restored = st.Restored[:k]
}

// stateDays lists the days that have a state file, oldest first.
func stateDays(root string) []date.Date {
	ents, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(StateDir)))
	if err != nil {
		return nil
	}
	var out []date.Date
	seen := map[date.Date]bool{}
	for _, e := range ents {
		n := e.Name()
		ext := filepath.Ext(n)
		if ext != ".log" && ext != ".json" {
			continue
		}
		if d, err := date.Parse(strings.TrimSuffix(n, ext)); err == nil && !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Before(out[j]) })
	return out
}

func hash(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
