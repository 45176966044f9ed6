package proxy

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/util/atomicfile"
)

// The files under Options.StateDir.
const (
	seenFile  = "written"     // the key of every turn written, a line each
	spoolFile = "spool.jsonl" // turns not written yet, a JSON line each
)

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
// written in a spool until they can.
type turns struct {
	dir string
	mem Memory
	log *slog.Logger

	mu    sync.Mutex
	seen  map[keyBits]struct{}
	spool []turn
	flush sync.Mutex // one flush at a time
}

func newTurns(dir string, mem Memory, log *slog.Logger) *turns {
	return &turns{dir: dir, mem: mem, log: log, seen: map[keyBits]struct{}{}}
}

// load reads the keys written and the spool. Without a dir, it keeps them
// in memory only.
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
	path := filepath.Join(t.dir, spoolFile)
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading the proxy's spool: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var tr turn
		if err := json.Unmarshal(sc.Bytes(), &tr); err != nil || tr.Key == "" {
			t.log.Warn("skipping a line of the spool that is not a turn", "file", path, "line", n)
			continue
		}
		t.spool = append(t.spool, tr)
		t.seen[bitsOf(tr.Key)] = struct{}{}
	}
	return sc.Err()
}

// remember writes the turns not written before, in order. A turn that
// cannot be written goes to the spool; the warning says so. It does not
// stop when ctx does: a reply the client saw is remembered even when the
// client hangs up right after.
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
	for i, tr := range todo {
		if written[i] {
			t.markWritten(tr.Key)
			continue
		}
		t.log.Warn("remembering a chat turn failed; it is spooled and written later", "err", err)
		warning = "remembering this turn failed (" + errText(err) + "); it is kept and written later"
		if serr := t.toSpool(tr); serr != nil {
			t.log.Error("spooling a chat turn failed: it is not remembered", "err", serr, "text", tr.Text)
			warning = "remembering this turn failed, and so did keeping it: " + serr.Error()
			t.mu.Lock()
			delete(t.seen, bitsOf(tr.Key)) // a resend tries again
			t.mu.Unlock()
		}
	}
	if err == nil && t.pending() > 0 {
		t.flushSpool(ctx)
	}
	return warning
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
	if err := appendLine(filepath.Join(t.dir, seenFile), []byte(key), false); err != nil {
		t.log.Warn("recording a written chat turn failed; a resend of it may be written again", "err", err)
	}
}

func (t *turns) toSpool(tr turn) error {
	t.mu.Lock()
	t.spool = append(t.spool, tr)
	t.mu.Unlock()
	if t.dir == "" {
		return nil
	}
	data, err := json.Marshal(tr)
	if err != nil {
		return err
	}
	return appendLine(filepath.Join(t.dir, spoolFile), data, true)
}

func (t *turns) pending() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.spool)
}

// flushSpool writes the spooled turns it can, in order, and keeps the rest.
func (t *turns) flushSpool(ctx context.Context) {
	t.flush.Lock()
	defer t.flush.Unlock()
	t.mu.Lock()
	todo := t.spool
	t.mu.Unlock()
	if len(todo) == 0 {
		return
	}
	var left []turn
	for _, tr := range todo {
		if ctx.Err() != nil {
			left = append(left, tr)
			continue
		}
		if _, err := t.mem.Remember(ctx, tr.RememberRequest); err != nil {
			t.log.Warn("writing a spooled chat turn failed; it stays in the spool", "err", err)
			left = append(left, tr)
			continue
		}
		t.markWritten(tr.Key)
	}
	t.mu.Lock()
	// Turns spooled while this ran come after the ones it tried.
	t.spool = append(left, t.spool[len(todo):]...)
	rest := t.spool
	t.mu.Unlock()
	t.log.Info("wrote spooled chat turns", "written", len(todo)-len(left), "left", len(rest))
	if t.dir == "" {
		return
	}
	var buf bytes.Buffer
	for _, tr := range rest {
		data, _ := json.Marshal(tr)
		buf.Write(data)
		buf.WriteByte('\n')
	}
	if err := atomicfile.Write(filepath.Join(t.dir, spoolFile), buf.Bytes(), 0o600); err != nil {
		t.log.Error("rewriting the proxy's spool failed; turns written may be written again", "err", err)
	}
}

// appendLine appends data and a newline to path, creating it and its dir
// readable by the owner only, and syncs it if asked: a spooled turn is
// synced; a written turn's key is not (the day file is, and a key lost in
// a crash costs at most a resent turn written twice).
func appendLine(path string, data []byte, sync bool) error {
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
	if sync {
		if err := f.Sync(); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
