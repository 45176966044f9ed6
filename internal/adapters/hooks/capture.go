package hooks

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/entrytext"
	"github.com/daybook/daybook/internal/redact"
	"github.com/daybook/daybook/internal/spool"
	"github.com/daybook/daybook/internal/util/atomicfile"
	"github.com/daybook/daybook/internal/util/filelock"
)

// StateDir holds, under the data dir, what capture keeps between runs: a
// file per session naming the turns captured, and its lock. The entries a
// capture could not write wait in the one spool (internal/spool).
const StateDir = "state/hooks"

// AgentTag marks every captured entry.
const AgentTag = "claude-code"

// Importer writes import lines; daybook.Service (the App, or the daemon's
// socket client) is one. Import skips an entry its day file holds already
// (same time, text and tags), which makes a capture idempotent even when
// the session's state is lost.
type Importer interface {
	Import(ctx context.Context, r io.Reader, opt daybook.ImportOptions) (daybook.ImportResponse, error)
}

// CaptureOptions tune Capture.
type CaptureOptions struct {
	Dir     string       // the data dir
	MaxText int          // bytes of one turn kept; the rest is cut (0: hooksMaxText)
	Final   bool         // the agent finished (Stop, SessionEnd): the last answer is complete
	Warn    func(string) // receives a line per skipped transcript line or entry
}

// CaptureResult counts what a capture did.
type CaptureResult struct {
	Turns   int `json:"turns"`   // in the transcript
	New     int `json:"new"`     // not captured by an earlier run
	Added   int `json:"added"`   // entries written
	Skipped int `json:"skipped"` // already in their day files
	Spooled int `json:"spooled"` // kept in the spool, for the daemon to write
}

// Capture remembers the turns of in's transcript that no earlier capture of
// the session took, as entries of their own time tagged with the agent,
// the session and the project, through w; with w nil (no daemon) or when w
// fails, they go to the spool (internal/spool) instead, which the daemon
// writes at its start and every spool.ReplayEvery. The session's state names the turns taken, so that
// a second capture of the same transcript adds nothing and a longer one
// only its new turns.
func Capture(ctx context.Context, w Importer, in Input, opt CaptureOptions) (CaptureResult, error) {
	var res CaptureResult
	if opt.Warn == nil {
		opt.Warn = func(string) {}
	}
	if in.TranscriptPath == "" {
		return res, errors.New("hook input has no transcript_path")
	}
	if in.SessionID == "" {
		return res, errors.New("hook input has no session_id")
	}
	turns, err := ReadTranscript(in.TranscriptPath, opt.Final, opt.Warn)
	if err != nil {
		return res, err
	}
	res.Turns = len(turns)
	unlock, err := lockState(ctx, opt.Dir)
	if err != nil {
		return res, err
	}
	defer unlock()
	statePath := filepath.Join(opt.Dir, StateDir, "sessions", sessionFile(in.SessionID))
	st, err := readState(statePath)
	if err != nil {
		return res, err
	}
	var lines []daybook.ImportLine
	var keys []string
	tags := Tags(in)
	// What the context hooks handed the session: an answer that restates
	// an entry of its prompt's block cites it.
	sess, err := LoadSession(opt.Dir, in.SessionID)
	if err != nil {
		opt.Warn(fmt.Sprintf("%v; the answers cite nothing", err))
	}
	for _, t := range turns {
		key := t.Role + ":" + t.Key
		if st.has(key) {
			continue
		}
		res.New++
		keys = append(keys, key)
		var cites []string
		if t.Role == RoleAssistant {
			cites = sess.Cites(t.Text)
		}
		lines = append(lines, importLine(t, tags, cites, opt.MaxText))
	}
	if len(lines) > 0 {
		written := false
		if w != nil {
			r, err := w.Import(ctx, bytes.NewReader(encodeLines(lines)), captureImport)
			switch {
			case err != nil:
				opt.Warn(fmt.Sprintf("writing the session's entries failed, so they are spooled: %v", err))
			default:
				written = true
				res.Added, res.Skipped = r.Added, r.Skipped
				for _, rej := range r.Rejected {
					opt.Warn(fmt.Sprintf("entry %d of the session was refused: %s", rej.Line, rej.Error))
				}
			}
		}
		if !written {
			items := make([]spool.Item, len(lines))
			for i, l := range lines {
				items[i] = spool.Item{From: spool.FromHooks,
					RememberRequest: daybook.RememberRequest{Text: l.Text, Kind: l.Kind, Tags: l.Tags, At: l.At}}
			}
			if err := spool.New(opt.Dir).Add(ctx, items...); err != nil {
				return res, fmt.Errorf("spooling the session's entries: %w", err) // nothing is marked captured: the next capture tries again
			}
			res.Spooled = len(lines)
		}
	}
	if len(keys) > 0 {
		st.Captured = append(st.Captured, keys...)
		if err := writeState(statePath, st); err != nil {
			return res, err
		}
	}
	return res, nil
}

// Tags are the tags of the entries captured from in: the agent, the
// session (its first 8 characters) and the project (the working folder's
// name).
func Tags(in Input) []string {
	tags := []string{AgentTag}
	if s := tagPart(in.SessionID, 8); s != "" {
		tags = append(tags, "session-"+s)
	}
	if in.Cwd != "" {
		if p := tagPart(filepath.Base(in.Cwd), 40); p != "" && p != "." && p != "-" {
			tags = append(tags, "project-"+p)
		}
	}
	return tags
}

// notTagChar is compiled at its first use: not at the start of every
// command of the front, which links this package.
var notTagChar = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-z0-9_-]+`) })

// tagPart is s lowercased as the rest of a tag, at most n bytes.
func tagPart(s string, n int) string {
	s = strings.Trim(notTagChar().ReplaceAllString(strings.ToLower(s), "-"), "-")
	if len(s) > n {
		s = strings.TrimRight(s[:n], "-")
	}
	return s
}

// captureImport is how captured lines are imported, from the hook or the
// spool: a turn whose markdown would not stay one entry (a list, a heading
// after a blank line) is written as one paragraph rather than refused. The
// daemon checks that, with the day files' parser: the hook, run in the
// front, links no markdown parser.
var captureImport = daybook.ImportOptions{Flatten: true}

// importLine is turn t as an entry: its text with secrets removed, cleaned
// and cut to maxText bytes (entrytext.CleanText and CutText, the rules of
// every turn), the ids it cites on a line of their own (entrytext.Cites), and
// left to the import to make one paragraph if its markdown would not stay
// one entry (captureImport).
func importLine(t Turn, tags, cites []string, maxText int) daybook.ImportLine {
	if maxText <= 0 || maxText > entrytext.MaxTurnText {
		maxText = entrytext.MaxTurnText
	}
	// Cut first: a 20 MB prompt is not read through by every pattern of
	// the redactor only to be thrown away (redact.Cut keeps whole words,
	// and Margin leaves room for what redaction removes); then the rules of
	// every turn.
	text, _ := redact.Text(redact.Cut(t.Text, maxText+redact.Margin))
	text, _ = entrytext.CutText(entrytext.CleanText(text), maxText)
	prefix := "User: "
	if t.Role == RoleAssistant {
		prefix = "Assistant: "
	}
	text = prefix + text
	if len(cites) > 0 {
		text += "\n" + entrytext.CitesText(cites)
	}
	at := t.At.Truncate(time.Second)
	return daybook.ImportLine{At: at.Format(time.RFC3339), Text: text, Tags: tags}
}

func encodeLines(lines []daybook.ImportLine) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, l := range lines {
		enc.Encode(l) // an ImportLine always encodes
	}
	return b.Bytes()
}

// state is what a session's file keeps: the turns captured, by role and
// the uuid of their transcript line.
type state struct {
	Captured []string `json:"captured"`
	set      map[string]bool
}

func (s *state) has(key string) bool {
	if s.set == nil {
		s.set = make(map[string]bool, len(s.Captured))
		for _, k := range s.Captured {
			s.set[k] = true
		}
	}
	return s.set[key]
}

func readState(path string) (state, error) {
	var st state
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("reading the session's capture state: %w", err)
	}
	if err := json.Unmarshal(data, &st); err != nil {
		// The entries are in the day files and Import skips them: start over.
		return state{}, nil
	}
	return st, nil
}

func writeState(path string, st state) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("writing the session's capture state: %w", err)
	}
	st.Captured = slices.Compact(st.Captured)
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(path, data, 0o600); err != nil {
		return fmt.Errorf("writing the session's capture state: %w", err)
	}
	return nil
}

// sessionFile is the state file's name for a session id: the id itself
// when it is a plain name (Claude Code's are UUIDs), else its hash.
func sessionFile(id string) string {
	if len(id) <= 100 && regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*$`).MatchString(id) {
		return id + ".json"
	}
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:16]) + ".json"
}

// lockState takes the lock of StateDir, waiting until ctx ends: captures of
// one session (Stop, then SessionEnd) and the daemon's drain run one at a
// time.
func lockState(ctx context.Context, dir string) (func(), error) {
	path := filepath.Join(dir, StateDir, "lock")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("capture state: %w", err)
	}
	unlock, err := filelock.LockPathContext(ctx, path, 0o600)
	if err != nil {
		return nil, fmt.Errorf("capture state: %w", err)
	}
	return unlock, nil
}
