// Package spool keeps what waits to be written to the day files: the turns
// of a chat through the memory proxy or `daybook chat`, and an agent's
// turns captured by the hooks when no daemon answered. There is one spool
// per data dir, state/spool/spool.jsonl, a JSON item a line; every process
// appends to it and rewrites it under one lock (state/spool/lock, a
// filelock that a killed process lets go of), and one replay writes it: the
// whole spool in one call of the App's ReplayTurns (one write per day file,
// one index batch, and an entry its day holds already not written twice).
//
// An item that can never be written (text the day files cannot hold, a
// date outside the accepted window, a line that is not an item) goes once
// to the dead-letter file, state/spool/dead.jsonl, and is not tried again;
// `daybook doctor` reports it, and `daybook spool` shows, requeues or drops
// it. Text with NUL bytes or bytes that are not UTF-8 is refused by Add,
// never spooled: the callers clean it first (entrytext.CleanText).
package spool

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/entrytext"
	"github.com/daybook/daybook/internal/redact"
	"github.com/daybook/daybook/internal/util/atomicfile"
	"github.com/daybook/daybook/internal/util/filelock"
)

// Dir holds the spool under the data dir.
const Dir = "state/spool"

// The files under Dir.
const (
	spoolName = "spool.jsonl"
	deadName  = "dead.jsonl"
	lockName  = "lock"
)

// Where items come from.
const (
	FromProxy = "proxy" // the memory proxy in the daemon
	FromChat  = "chat"  // daybook chat's proxy
	FromHooks = "hooks" // an agent's hooks (Claude Code)
)

// Item is one entry waiting to be written.
type Item struct {
	// Key is the writer's id of the item: the proxy's turn key, which the
	// proxy records as written once the item is.
	Key  string `json:"key,omitempty"`
	From string `json:"from"`
	daybook.RememberRequest
}

// Dead is an item that can never be written, as the dead-letter file keeps
// it: the item (or the line that was not one), why, and when.
type Dead struct {
	Item
	Line  string `json:"line,omitempty"` // a spool line that was not an item
	Error string `json:"error"`
	When  string `json:"dead_at"`
}

// Writer writes a replay: the App's ReplayTurns.
type Writer interface {
	ReplayTurns(ctx context.Context, reqs []daybook.RememberRequest) ([]daybook.RememberResponse, error)
}

// Spool is the spool of one data dir. Its methods may be called from
// several goroutines and processes at once: each takes the lock.
type Spool struct {
	root string // the data dir
	dir  string // the spool's folder
}

// New returns the spool of the data dir root; nothing is created until
// something is added.
func New(root string) *Spool {
	return &Spool{root: root, dir: filepath.Join(root, filepath.FromSlash(Dir))}
}

// Path returns the spool file's path.
func (s *Spool) Path() string { return filepath.Join(s.dir, spoolName) }

// DeadPath returns the dead-letter file's path.
func (s *Spool) DeadPath() string { return filepath.Join(s.dir, deadName) }

// lock takes the spool's lock, waiting until ctx ends.
func (s *Spool) lock(ctx context.Context) (func(), error) {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return nil, fmt.Errorf("spool: %w", err)
	}
	unlock, err := filelock.LockPathContext(ctx, filepath.Join(s.dir, lockName), 0o600)
	if err != nil {
		return nil, fmt.Errorf("spool: %w", err)
	}
	return unlock, nil
}

// Check refuses an item that no write could ever take, naming why: no
// text, a NUL byte, bytes that are not UTF-8, more than a rest file holds.
func Check(it Item) error {
	switch t := it.Text; {
	case strings.TrimSpace(t) == "":
		return errors.New("the text is empty")
	case strings.IndexByte(t, 0) >= 0:
		return errors.New("the text holds a NUL byte")
	case !utf8.ValidString(t):
		return errors.New("the text is not UTF-8")
	case len(t) > entrytext.MaxRestText:
		return fmt.Errorf("the text is %d bytes, over the %d MiB daybook keeps of one text", len(t), entrytext.MaxRestText>>20)
	}
	return nil
}

// Add appends items to the spool, synced before it returns, their secrets
// removed first (redact.Text, as the App's write would), so that a secret
// never waits on disk for its turn. An item Check refuses makes it add
// nothing and return the reason.
func (s *Spool) Add(ctx context.Context, items ...Item) error {
	var buf bytes.Buffer
	for i, it := range items {
		if err := Check(it); err != nil {
			return fmt.Errorf("item %d cannot be kept to be written later: %w", i+1, err)
		}
		it.Text, _ = redact.Text(it.Text)
		data, err := json.Marshal(it)
		if err != nil {
			return err
		}
		buf.Write(data)
		buf.WriteByte('\n')
	}
	if buf.Len() == 0 {
		return nil
	}
	unlock, err := s.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	return appendSynced(s.Path(), buf.Bytes())
}

// Len returns how many items wait in the spool.
func (s *Spool) Len() (int, error) {
	f, err := os.Open(s.Path())
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	n := 0
	err = eachLine(f, func([]byte) { n++ })
	return n, err
}

// Result says what a replay did.
type Result struct {
	Written []Item // written, or found in their day file already
	Dead    int    // moved to the dead-letter file
	Left    int    // still waiting: the write failed for now
}

// Replay writes the spool through w, in one call, and keeps what is left:
// an item written is taken out; an item w refuses for good (Permanent) goes
// to the dead-letter file; the rest waits for the next replay. It holds
// the lock throughout, so that no item is written twice by two replays.
func (s *Spool) Replay(ctx context.Context, w Writer) (Result, error) {
	var res Result
	if _, err := os.Stat(s.Path()); errors.Is(err, os.ErrNotExist) {
		return res, nil
	}
	unlock, err := s.lock(ctx)
	if err != nil {
		return res, err
	}
	defer unlock()
	items, dead, err := s.read()
	if err != nil {
		return res, err
	}
	var werr error
	left := items
	if len(items) > 0 {
		reqs := make([]daybook.RememberRequest, len(items))
		for i, it := range items {
			reqs[i] = it.RememberRequest
		}
		resps, err := w.ReplayTurns(context.WithoutCancel(ctx), reqs)
		done := make([]bool, len(items))
		for i := range resps {
			done[i] = err == nil || resps[i].ID != ""
		}
		if err != nil && Permanent(err) {
			// One item spoils the batch: find it, one at a time.
			err = nil
			for i, it := range items {
				if done[i] {
					continue
				}
				_, e := w.ReplayTurns(context.WithoutCancel(ctx), reqs[i:i+1])
				switch {
				case e == nil:
					done[i] = true
				case Permanent(e):
					done[i] = true
					dead = append(dead, deadOf(it, "", e))
				default:
					err = e
				}
			}
		}
		werr = err
		left = left[:0:0]
		for i, it := range items {
			if done[i] {
				if !isDead(dead, it) {
					res.Written = append(res.Written, it)
				}
				continue
			}
			left = append(left, it)
		}
	}
	if len(dead) > 0 {
		var buf bytes.Buffer
		for _, d := range dead {
			data, _ := json.Marshal(d)
			buf.Write(data)
			buf.WriteByte('\n')
		}
		if err := appendSynced(s.DeadPath(), buf.Bytes()); err != nil {
			return res, fmt.Errorf("moving %d items to the dead-letter file: %w", len(dead), err)
		}
	}
	if err := s.rewrite(left); err != nil {
		return res, err
	}
	res.Dead, res.Left = len(dead), len(left)
	if werr != nil {
		return res, fmt.Errorf("writing the spool: %w", werr)
	}
	return res, nil
}

func isDead(dead []Dead, it Item) bool {
	for _, d := range dead {
		if d.Key == it.Key && d.Text == it.Text && d.At == it.At {
			return true
		}
	}
	return false
}

// Permanent reports whether err means the item can never be written as it
// is: the request is at fault (a caller's error: an empty text, a date
// outside the window, a bad tag), or its day file is full to its limit.
func Permanent(err error) bool {
	if err == nil {
		return false
	}
	var c daybook.Coded
	if errors.As(err, &c) && c.APICode().UserFault() {
		return true
	}
	var e *daybook.Error
	if errors.As(err, &e) && e.UserFault() {
		return true
	}
	return errors.Is(err, entrytext.ErrDayFull)
}

func deadOf(it Item, line string, err error) Dead {
	return Dead{Item: it, Line: line, Error: err.Error(), When: time.Now().UTC().Format(time.RFC3339)}
}

// read returns the spool's items, and its lines that are not items as dead.
func (s *Spool) read() ([]Item, []Dead, error) {
	f, err := os.Open(s.Path())
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("reading the spool: %w", err)
	}
	defer f.Close()
	var items []Item
	var dead []Dead
	n := 0
	err = eachLine(f, func(line []byte) {
		n++
		var it Item
		if err := json.Unmarshal(line, &it); err != nil {
			dead = append(dead, deadOf(Item{}, string(line), fmt.Errorf("line %d of the spool is not an item: %v", n, err)))
			return
		}
		if err := Check(it); err != nil {
			dead = append(dead, deadOf(it, "", err))
			return
		}
		items = append(items, it)
	})
	if err != nil {
		return nil, nil, fmt.Errorf("reading the spool: %w", err)
	}
	return items, dead, nil
}

// rewrite replaces the spool with items; none: it removes the file.
func (s *Spool) rewrite(items []Item) error {
	if len(items) == 0 {
		if err := os.Remove(s.Path()); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("removing the written spool: %w", err)
		}
		return nil
	}
	var buf bytes.Buffer
	for _, it := range items {
		data, _ := json.Marshal(it)
		buf.Write(data)
		buf.WriteByte('\n')
	}
	if err := atomicfile.Write(s.Path(), buf.Bytes(), 0o600); err != nil {
		return fmt.Errorf("rewriting the spool: %w", err)
	}
	return nil
}

// eachLine calls fn with each non-blank line of r, however long.
func eachLine(r io.Reader, fn func([]byte)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if t := bytes.TrimSpace(line); len(t) > 0 {
			fn(t)
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// appendSynced appends data to path, creating it readable by the owner
// only, and syncs it. A write cut short (a full disk) is truncated away, so
// that no half line is left for the next reader.
func appendSynced(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Truncate(fi.Size())
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("syncing %s: %w", path, err)
	}
	return f.Close()
}

// ReplayEvery is how often the daemon replays a spool that holds items.
const ReplayEvery = time.Minute

// Loop is the daemon's part: it adopts the spools of an earlier daybook,
// then replays the spool at once and every ReplayEvery while it holds
// items, until ctx ends. log receives a line per replay that did something.
func (s *Spool) Loop(ctx context.Context, w Writer, log func(msg string, args ...any)) error {
	if n, err := s.Adopt(ctx); err != nil {
		log("adopting an earlier spool failed", "err", err)
	} else if n > 0 {
		log("adopted the items of an earlier spool", "items", n)
	}
	t := time.NewTicker(ReplayEvery)
	defer t.Stop()
	for {
		res, err := s.Replay(ctx, w)
		if err != nil && ctx.Err() == nil {
			log("writing the spool failed; what is left waits for the next try", "err", err, "left", res.Left)
		} else if len(res.Written) > 0 || res.Dead > 0 {
			log("wrote the spool", "written", len(res.Written), "dead", res.Dead, "left", res.Left)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}
