package hooks

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/daybook/daybook/internal/cites"
	"github.com/daybook/daybook/internal/util/atomicfile"
)

// SessionsDir holds, under the data dir, what the context hooks handed
// each session: a small file per session (SESSION.json) naming the items
// sent since its last start, and the tokens spent. Claude Code keeps a
// SessionStart block for the whole session, so a prompt's block leaves out
// what the session holds already: the foundation and the items sent.
const SessionsDir = StateDir + "/context"

// Bounds of a session's file: the ids kept (the oldest go first), and how
// long a file no hook touched is kept (older ones are removed at a
// session's start).
const (
	maxSentIDs    = 4000
	maxHanded     = 400
	sessionMaxAge = 14 * 24 * time.Hour
)

// Session is the state of one session's context hooks.
type Session struct {
	ID      string    `json:"session"`
	Source  string    `json:"source,omitempty"` // of the last SessionStart: startup, resume, clear, compact
	Started time.Time `json:"started"`          // the last SessionStart (zero: none seen)
	// Sent names what the session holds since its last start: item ids,
	// and "foundation".
	Sent []string `json:"sent"`
	// Tokens handed over: at the starts (every one), and to the prompts.
	StartTokens  int `json:"start_tokens"`
	Starts       int `json:"starts"`
	PromptTokens int `json:"prompt_tokens"`
	Prompts      int `json:"prompts"` // prompts answered with a block
	Asked        int `json:"asked"`   // prompts the hook was run for
	// Handed are the entries the blocks handed over, with their words,
	// newest last (Cites reads them at capture); kept across starts: what
	// an answer restates came from one of them.
	Handed  []cites.Entry `json:"handed,omitempty"`
	Updated time.Time     `json:"updated"`

	path string
	set  map[string]bool
}

// LoadSession reads the state of session id under the data dir dir; a
// session not seen yet, or a file that does not parse, starts empty.
func LoadSession(dir, id string) (*Session, error) {
	s := &Session{ID: id, path: filepath.Join(dir, SessionsDir, sessionFile(id))}
	data, err := os.ReadFile(s.path)
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the session's context state: %w", err)
	}
	if err := json.Unmarshal(data, s); err != nil || s.ID != id {
		return &Session{ID: id, path: s.path}, nil // what was sent is only sent again
	}
	return s, nil
}

// Has reports whether the session holds id.
func (s *Session) Has(id string) bool {
	if s.set == nil {
		s.set = make(map[string]bool, len(s.Sent))
		for _, x := range s.Sent {
			s.set[x] = true
		}
	}
	return s.set[id]
}

// Start records a SessionStart of source whose block handed over ids:
// the session holds those and nothing else (after clear or compact the
// model no longer has what came before; a resumed session gets its block
// again, and holds it).
func (s *Session) Start(source string, ids []string, tokens int, entries []cites.Entry, now time.Time) {
	s.Source, s.Started = source, now
	s.Sent, s.set = nil, nil
	s.add(ids)
	s.hand(entries)
	s.Starts++
	s.StartTokens += tokens
}

// Prompt records a prompt's block: ids handed over, tokens, and the
// entries with their words.
func (s *Session) Prompt(ids []string, tokens int, entries []cites.Entry) {
	s.add(ids)
	s.hand(entries)
	s.Prompts++
	s.PromptTokens += tokens
}

// hand adds entries to Handed, each once, the newest last.
func (s *Session) hand(entries []cites.Entry) {
	for _, e := range entries {
		s.Handed = slices.DeleteFunc(s.Handed, func(h cites.Entry) bool { return h.ID == e.ID })
		s.Handed = append(s.Handed, e)
	}
	if len(s.Handed) > maxHanded {
		s.Handed = s.Handed[len(s.Handed)-maxHanded:]
	}
}

func (s *Session) add(ids []string) {
	for _, id := range ids {
		if id != "" && !s.Has(id) {
			s.Sent = append(s.Sent, id)
			s.set[id] = true
		}
	}
	if len(s.Sent) > maxSentIDs {
		s.Sent, s.set = s.Sent[len(s.Sent)-maxSentIDs:], nil
	}
}

// Save writes the session's state.
func (s *Session) Save(now time.Time) error {
	s.Updated = now
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return fmt.Errorf("writing the session's context state: %w", err)
	}
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(s.path, data, 0o600); err != nil {
		return fmt.Errorf("writing the session's context state: %w", err)
	}
	return nil
}

// ExpireSessions removes the session files under dir no hook touched for
// sessionMaxAge.
func ExpireSessions(dir string, now time.Time) {
	ents, err := os.ReadDir(filepath.Join(dir, SessionsDir))
	if err != nil {
		return
	}
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > sessionMaxAge {
			os.Remove(filepath.Join(dir, SessionsDir, e.Name()))
		}
	}
}

// SessionTotals sums the sessions' files under dir: what the context hooks
// handed over, for "daybook stats".
type SessionTotals struct {
	Sessions     int `json:"sessions"`
	Starts       int `json:"starts"`
	StartTokens  int `json:"start_tokens"`
	Prompts      int `json:"prompts"` // prompts answered with a block
	Asked        int `json:"asked"`   // prompts the hook was run for
	PromptTokens int `json:"prompt_tokens"`
}

// Totals reads every session file under dir.
func Totals(dir string) SessionTotals {
	var t SessionTotals
	ents, err := os.ReadDir(filepath.Join(dir, SessionsDir))
	if err != nil {
		return t
	}
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, SessionsDir, e.Name()))
		var s Session
		if err != nil || json.Unmarshal(data, &s) != nil {
			continue
		}
		t.Sessions++
		t.Starts += s.Starts
		t.StartTokens += s.StartTokens
		t.Prompts += s.Prompts
		t.Asked += s.Asked
		t.PromptTokens += s.PromptTokens
	}
	return t
}
