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

	"github.com/daybook/daybook/internal/adapters/api"
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
	api.RememberRequest
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

// turns writes each turn once, and keeps the ones that could not be
// written in a spool until they can.
type turns struct {
	dir string
	mem interface {
		Remember(context.Context, api.RememberRequest) (api.RememberResponse, error)
	}
	log *slog.Logger

	mu    sync.Mutex
	seen  map[string]bool
	spool []turn
	flush sync.Mutex // one flush at a time
}

func newTurns(dir string, mem Memory, log *slog.Logger) *turns {
	return &turns{dir: dir, mem: mem, log: log, seen: map[string]bool{}}
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
			t.seen[k] = true
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
		t.seen[tr.Key] = true
	}
	return sc.Err()
}

// remember writes the turns not written before, in order. A turn that
// cannot be written goes to the spool; the warning says so. It does not
// stop when ctx does: a reply the client saw is remembered even when the
// client hangs up right after.
func (t *turns) remember(ctx context.Context, ts []turn) (warning string) {
	ctx = context.WithoutCancel(ctx)
	wrote := false
	for _, tr := range ts {
		t.mu.Lock()
		if t.seen[tr.Key] {
			t.mu.Unlock()
			continue
		}
		t.seen[tr.Key] = true
		t.mu.Unlock()
		if _, err := t.mem.Remember(ctx, tr.RememberRequest); err != nil {
			t.log.Warn("remembering a chat turn failed; it is spooled and written later", "err", err)
			warning = "remembering this turn failed (" + err.Error() + "); it is kept and written later"
			if serr := t.toSpool(tr); serr != nil {
				t.log.Error("spooling a chat turn failed: it is not remembered", "err", serr, "text", tr.Text)
				warning = "remembering this turn failed, and so did keeping it: " + serr.Error()
				t.mu.Lock()
				delete(t.seen, tr.Key) // a resend tries again
				t.mu.Unlock()
			}
			continue
		}
		wrote = true
		t.markWritten(tr.Key)
	}
	if wrote && t.pending() > 0 {
		t.flushSpool(ctx)
	}
	return warning
}

func (t *turns) markWritten(key string) {
	if t.dir == "" {
		return
	}
	if err := appendLine(filepath.Join(t.dir, seenFile), []byte(key)); err != nil {
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
	return appendLine(filepath.Join(t.dir, spoolFile), data)
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
// readable by the owner only, and syncs it.
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
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
