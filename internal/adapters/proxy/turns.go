package proxy

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/spool"
)

// seenFile, under Options.StateDir, holds the key of every turn written
// or kept in the spool, a line each.
const seenFile = "written"

// turn is one entry to remember: a user's turn or a reply.
type turn struct {
	Key string `json:"key"`
	daybook.RememberRequest
}

// turnKey identifies a turn across resends of the history: the
// conversation, the turn's index in it, its role and its text.
func turnKey(conv string, index int, role, text string) string {
	h := sha256.New()
	for _, s := range []string{conv, strconv.Itoa(index), role, text} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// keyBits is a turn key as the set of those written keeps it: its 12 bytes,
// not its 24 hex digits in a string of their own (every turn of every chat
// the proxy ever remembered is in that set).
type keyBits [12]byte

// bitsOf returns the bytes of key, or for a key that is not turnKey's (a
// line of the written file someone edited), 12 bytes of its hash.
func bitsOf(key string) keyBits {
	var b keyBits
	if len(key) == 2*len(b) {
		if _, err := hex.Decode(b[:], []byte(key)); err == nil {
			return b
		}
	}
	sum := sha256.Sum256([]byte(key))
	copy(b[:], sum[:])
	return b
}

// turns writes each turn once, and keeps the ones that could not be
// written in the spool (internal/spool) until they can.
type turns struct {
	dir    string // StateDir: the keys written; "": kept in memory only
	sp     *spool.Spool
	from   string // the spool items' From
	mem    Memory
	log    *slog.Logger
	isPerm func(error) bool

	mu   sync.Mutex
	seen map[keyBits]struct{}
	mem0 []spool.Item // without a spool: the turns waiting, in memory

	replaying sync.Mutex // one replay at a time in this process
}

func newTurns(dir string, sp *spool.Spool, from string, mem Memory, log *slog.Logger, isUser func(error) bool) *turns {
	return &turns{dir: dir, sp: sp, from: from, mem: mem, log: log, seen: map[keyBits]struct{}{},
		isPerm: func(err error) bool { return spool.Permanent(err) || isUser(err) }}
}

// load reads the keys written or spooled.
func (t *turns) load() error {
	if t.dir == "" {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(t.dir, seenFile))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("reading the proxy's written turns: %w", err)
	}
	for line := range bytes.Lines(data) {
		if k := string(bytes.TrimSpace(line)); k != "" {
			t.seen[bitsOf(k)] = struct{}{}
		}
	}
	return nil
}

// remember writes the turns not written before, in order, and returns when
// they are in their day files, synced. A turn that cannot be written now
// goes to the spool, and one that never can to the spool's dead letters;
// the warning says which. It does not stop when ctx does: a reply the
// client saw is remembered even when the client hangs up right after.
func (t *turns) remember(ctx context.Context, ts []turn) (warning string) {
	ctx = context.WithoutCancel(ctx)
	var todo []turn
	t.mu.Lock()
	for _, tr := range ts {
		if _, had := t.seen[bitsOf(tr.Key)]; !had {
			t.seen[bitsOf(tr.Key)] = struct{}{}
			todo = append(todo, tr)
		}
	}
	t.mu.Unlock()
	if len(todo) == 0 {
		return ""
	}
	written, err := t.write(ctx, todo)
	var failed []spool.Item
	for i, tr := range todo {
		if written[i] {
			t.markWritten(tr.Key)
			continue
		}
		failed = append(failed, spool.Item{Key: tr.Key, From: t.from, RememberRequest: tr.RememberRequest})
	}
	if len(failed) == 0 {
		if t.pending() > 0 && t.replaying.TryLock() { // one at a time; one under way will do
			go func() {
				defer t.replaying.Unlock()
				t.replayLocked(context.Background()) // after the answer, not before it
			}()
		}
		return ""
	}
	if t.isPerm(err) {
		t.log.Warn("remembering a chat turn failed, and cannot succeed; it goes to the spool's dead letters", "err", err)
		if t.sp != nil && t.sp.Bury(ctx, err, failed...) == nil {
			for _, it := range failed {
				t.markWritten(it.Key)
			}
			return "this turn cannot be remembered (" + errText(err) + "); it is kept in " + spool.Dir + "/dead.jsonl: see daybook spool"
		}
		t.forget(failed)
		return "this turn cannot be remembered: " + errText(err)
	}
	t.log.Warn("remembering a chat turn failed; it is spooled and written later", "err", err)
	if serr := t.toSpool(ctx, failed); serr != nil {
		t.log.Error("spooling a chat turn failed: it is not remembered", "err", serr)
		t.forget(failed)
		return "remembering this turn failed (" + errText(err) + "), and so did keeping it: " + serr.Error()
	}
	for _, it := range failed {
		t.markWritten(it.Key) // the spool answers for it now
	}
	return "remembering this turn failed (" + errText(err) + "); it is kept and written later"
}

// forget lets a resend of items try again.
func (t *turns) forget(items []spool.Item) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, it := range items {
		delete(t.seen, bitsOf(it.Key))
	}
}

func errText(err error) string {
	if err == nil {
		return "unknown error"
	}
	return err.Error()
}

// write writes ts in order, several entries at once (the App: one write,
// one sync per day file, indexed a moment later with the other turns
// written meanwhile), and reports which were written.
func (t *turns) write(ctx context.Context, ts []turn) ([]bool, error) {
	ok := make([]bool, len(ts))
	reqs := make([]daybook.RememberRequest, len(ts))
	for i, tr := range ts {
		reqs[i] = tr.RememberRequest
	}
	resps, err := t.mem.RememberTurns(ctx, reqs)
	for i := range resps {
		ok[i] = resps[i].ID != ""
	}
	return ok, err
}

func (t *turns) markWritten(key string) {
	if t.dir == "" {
		return
	}
	if err := appendLine(filepath.Join(t.dir, seenFile), []byte(key)); err != nil {
		t.log.Warn("recording a written chat turn failed; a resend of it may be written again", "err", err)
	}
}

func (t *turns) toSpool(ctx context.Context, items []spool.Item) error {
	if t.sp == nil {
		for _, it := range items {
			if err := spool.Check(it); err != nil {
				return err
			}
		}
		t.mu.Lock()
		t.mem0 = append(t.mem0, items...)
		t.mu.Unlock()
		return nil
	}
	return t.sp.Add(ctx, items...)
}

// pending returns how many turns wait in the spool (every writer's).
func (t *turns) pending() int {
	if t.sp == nil {
		t.mu.Lock()
		defer t.mu.Unlock()
		return len(t.mem0)
	}
	n, err := t.sp.Len()
	if err != nil {
		t.log.Warn("reading the spool failed", "err", err)
	}
	return n
}

// replay writes the spool, as every process that writes it does
// (spool.Replay), through the Memory.
func (t *turns) replay(ctx context.Context) {
	t.replaying.Lock()
	defer t.replaying.Unlock()
	t.replayLocked(ctx)
}

// replayLocked is replay with t.replaying held.
func (t *turns) replayLocked(ctx context.Context) {
	w := t.mem
	if t.sp == nil {
		t.mu.Lock()
		items := t.mem0
		t.mem0 = nil
		t.mu.Unlock()
		var left []spool.Item
		for _, it := range items {
			if _, err := w.ReplayTurns(ctx, []daybook.RememberRequest{it.RememberRequest}); err != nil && !t.isPerm(err) {
				left = append(left, it)
			}
		}
		t.mu.Lock()
		t.mem0 = append(left, t.mem0...)
		t.mu.Unlock()
		return
	}
	res, err := t.sp.Replay(ctx, w)
	if err != nil {
		t.log.Warn("writing the spool failed; what is left waits for the next try", "err", err, "left", res.Left)
	}
	if len(res.Written) > 0 || res.Dead > 0 {
		t.log.Info("wrote spooled turns", "written", len(res.Written), "dead", res.Dead, "left", res.Left)
	}
}

// appendLine appends data and a newline to path, creating it and its dir
// readable by the owner only. It is not synced: the day file or the spool
// is, and a key lost in a crash costs at most a resent turn written twice.
func appendLine(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
