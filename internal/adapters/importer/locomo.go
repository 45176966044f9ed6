package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Conversation is one LoCoMo-format conversation: two speakers over
// numbered sessions, and the questions asked about it.
type Conversation struct {
	ID       string // sample_id; for a file of one conversation without one, the file's base name
	Speakers []string
	Sessions []Session
	QA       []QA
}

// Session is one session_N of a conversation, in its N order.
type Session struct {
	N        int
	At       time.Time // session_N_date_time as a local wall clock (in time.UTC); zero if absent or bad
	TimeErr  string    // why At is zero
	Messages []Message
	Events   []Event // what happened in the session, as the set's authors wrote it; none if the file has no events
}

// Event is one event of a session as a LoCoMo-format set writes it beside
// the dialogue: LoCoMo's event_summary.events_session_N lists per speaker,
// REALTALK's events_session_N.agent_a / agent_b "sub-event"s. Evals compare
// summaries with them; the import leaves them out.
type Event struct {
	Speaker string // the speaker it is about, "" when the file does not say
	Text    string // "Kevin is going to the waterpark with his family"
}

// Message is one turn of a session.
type Message struct {
	DiaID   string // "D3:12"
	Speaker string
	Text    string    // clean_text, else text
	Caption string    // blip_caption of a shared image, if any
	At      time.Time // its own date_time, else its session's: a local wall clock in time.UTC; zero if neither
	TimeErr string    // why At is zero: no time given, or one that does not parse
}

// QA is one question about a conversation, with its gold answer and the
// dia_ids of its evidence.
type QA struct {
	Question string
	Answer   string   // a number in the file is given as its digits
	Evidence []string // dia_ids, one each: "D1:3; D1:4" in the file is two
	Category int
}

// ReadLoCoMo reads the LoCoMo-format conversations of the file at path: a
// JSON array of samples ({"sample_id", "conversation": {"speaker_a",
// "speaker_b", "session_N": [...], "session_N_date_time": "1:56 pm on 8
// May, 2023"}, "qa": [...]}), one such sample, or one conversation object
// with its sessions at the top (REALTALK: "name": {"speaker_1",
// "speaker_2"}, and a "date_time" of "29.12.2023, 00:51:12" on each
// message). The file's base name names the conversations that have no
// sample_id (name, or name-2, name-3... for several); errors name the path
// (and the line and column where its JSON broke). Times have no zone in the
// format: they are wall clocks, given in time.UTC. A message with no time,
// or one that does not parse, has a zero At and says why in TimeErr; only
// JSON that is not this shape is an error.
func ReadLoCoMo(path string) ([]Conversation, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading LoCoMo file: %w", err)
	}
	return parseLoCoMo(strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), path, b)
}

func parseLoCoMo(name, where string, b []byte) ([]Conversation, error) {
	var samples []map[string]json.RawMessage
	var err error
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '[' {
		err = json.Unmarshal(b, &samples)
	} else {
		var one map[string]json.RawMessage
		err = json.Unmarshal(b, &one)
		samples = append(samples, one)
	}
	if err != nil {
		return nil, fmt.Errorf("reading LoCoMo (a JSON list or object of conversations): %w", jsonError(where, b, err))
	}
	var out []Conversation
	for i, s := range samples {
		id := name
		if i > 0 {
			id = fmt.Sprintf("%s-%d", name, i+1)
		}
		c, err := parseSample(id, s)
		if err != nil {
			return nil, fmt.Errorf("reading LoCoMo %s, conversation %d: %w", where, i+1, jsonWhat(err))
		}
		out = append(out, c)
	}
	return out, nil
}

var (
	sessionKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^session_(\d+)$`) })
	eventsKey  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^events_session_(\d+)$`) })
)

func parseSample(id string, s map[string]json.RawMessage) (Conversation, error) {
	var c Conversation
	if raw, ok := s["sample_id"]; ok {
		if err := json.Unmarshal(raw, &c.ID); err != nil {
			return c, fmt.Errorf("sample_id: %w", err)
		}
	}
	if c.ID == "" {
		c.ID = id
	}
	conv := s
	if raw, ok := s["conversation"]; ok {
		if err := json.Unmarshal(raw, &conv); err != nil {
			return c, fmt.Errorf("conversation: %w", err)
		}
	}
	c.Speakers = speakers(conv)
	for key, raw := range conv {
		m := sessionKey().FindStringSubmatch(key)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		sess, err := parseSession(n, raw, conv[key+"_date_time"])
		if err != nil {
			return c, fmt.Errorf("%s: %w", key, err)
		}
		c.Sessions = append(c.Sessions, sess)
	}
	slices.SortFunc(c.Sessions, func(a, b Session) int { return a.N - b.N })
	if err := addEvents(&c, s, conv); err != nil {
		return c, err
	}
	if raw, ok := s["qa"]; ok {
		qa, err := parseQA(raw)
		if err != nil {
			return c, fmt.Errorf("qa: %w", err)
		}
		c.QA = qa
	}
	return c, nil
}

func speakers(conv map[string]json.RawMessage) []string {
	var out []string
	for _, k := range []string{"speaker_a", "speaker_b"} {
		var sp string
		if json.Unmarshal(conv[k], &sp) == nil && sp != "" {
			out = append(out, sp)
		}
	}
	var names map[string]string
	if len(out) == 0 && json.Unmarshal(conv["name"], &names) == nil {
		for _, k := range []string{"speaker_1", "speaker_2"} {
			if names[k] != "" {
				out = append(out, names[k])
			}
		}
	}
	return out
}

func parseSession(n int, raw, when json.RawMessage) (Session, error) {
	sess := Session{N: n}
	if len(when) > 0 {
		var s string
		if err := json.Unmarshal(when, &s); err != nil {
			return sess, fmt.Errorf("date_time: %w", err)
		}
		t, err := ParseLoCoMoTime(s)
		if err != nil {
			sess.TimeErr = fmt.Sprintf("session_%d_date_time: %v", n, err)
		}
		sess.At = t
	} else {
		sess.TimeErr = fmt.Sprintf("no date_time, and no session_%d_date_time", n)
	}
	var msgs []struct {
		Speaker   string `json:"speaker"`
		Text      string `json:"text"`
		CleanText string `json:"clean_text"`
		DateTime  string `json:"date_time"`
		DiaID     string `json:"dia_id"`
		Caption   string `json:"blip_caption"`
	}
	if err := json.Unmarshal(raw, &msgs); err != nil {
		return sess, fmt.Errorf("not a list of messages: %w", err)
	}
	for _, m := range msgs {
		msg := Message{DiaID: m.DiaID, Speaker: m.Speaker, Text: m.CleanText, Caption: m.Caption, At: sess.At, TimeErr: sess.TimeErr}
		if strings.TrimSpace(msg.Text) == "" {
			msg.Text = m.Text
		}
		if m.DateTime != "" {
			t, err := ParseLoCoMoTime(m.DateTime)
			msg.At, msg.TimeErr = t, ""
			if err != nil {
				msg.TimeErr = "date_time: " + err.Error()
			}
		}
		sess.Messages = append(sess.Messages, msg)
	}
	return sess, nil
}

// loCoMoLayouts are the time layouts seen in LoCoMo-format files: LoCoMo's
// session times and REALTALK's message times.
var loCoMoLayouts = []string{
	"3:04 pm on 2 January, 2006",
	"3:04 pm on 2 Jan, 2006",
	"02.01.2006, 15:04:05",
	"2.1.2006, 15:04:05",
	"02.01.2006, 15:04",
	"2006-01-02 15:04:05",
	"2006-01-02T15:04:05",
}

// ParseLoCoMoTime parses a LoCoMo time ("1:56 pm on 8 May, 2023") or a
// REALTALK one ("29.12.2023, 00:51:12") as a wall clock in time.UTC.
func ParseLoCoMoTime(s string) (time.Time, error) {
	s = strings.Join(strings.Fields(s), " ")
	for _, l := range loCoMoLayouts {
		if t, err := time.Parse(l, strings.ToLower(s)); err == nil {
			return t, nil
		}
		if t, err := time.Parse(l, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("time %q is not a LoCoMo time like \"1:56 pm on 8 May, 2023\" or \"29.12.2023, 00:51:12\"", s)
}

func parseQA(raw json.RawMessage) ([]QA, error) {
	var in []struct {
		Question string          `json:"question"`
		Answer   json.RawMessage `json:"answer"`
		Evidence []string        `json:"evidence"`
		Category int             `json:"category"`
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, err
	}
	out := make([]QA, len(in))
	for i, q := range in {
		out[i] = QA{Question: q.Question, Evidence: splitEvidence(q.Evidence), Category: q.Category}
		var s string
		if json.Unmarshal(q.Answer, &s) == nil {
			out[i].Answer = s
		} else if len(q.Answer) > 0 && string(q.Answer) != "null" {
			out[i].Answer = string(q.Answer)
		}
	}
	return out, nil
}

// loCoMoFormat imports every message of every conversation as an entry
// "Speaker: text" at its time.
type loCoMoFormat struct{}

func (loCoMoFormat) Read(path string, _ Options) (Result, error) {
	var res Result
	convs, err := ReadLoCoMo(path)
	if err != nil {
		return res, err
	}
	for _, c := range convs {
		c.AddEntries(path, &res)
	}
	return res, nil
}

// AddEntries adds every message of c to res as an entry "Speaker: text" at
// its time (a wall clock, Local), or as a skip naming why not; path names
// the source in From.
func (c Conversation) AddEntries(path string, res *Result) {
	for _, s := range c.Sessions {
		for i, m := range s.Messages {
			from := fmt.Sprintf("%s#%s/session_%d/%d", path, c.ID, s.N, i+1)
			if m.DiaID != "" {
				from = fmt.Sprintf("%s#%s/%s", path, c.ID, m.DiaID)
			}
			text := strings.TrimSpace(m.Text)
			if m.Caption != "" {
				text = strings.TrimSpace(text + "\n(shared an image: " + m.Caption + ")")
			}
			switch {
			case m.At.IsZero():
				res.skip(from, WhyNoTime, "%s", m.TimeErr)
			case text == "":
				res.skip(from, WhyNoText, "no text")
			default:
				if m.Speaker != "" {
					text = m.Speaker + ": " + text
				}
				res.Entries = append(res.Entries, Entry{At: m.At, Local: true, Text: text, From: from})
			}
		}
	}
}

// splitEvidence takes evidence ids as written, some of them several to a
// string ("D1:3; D1:4", "D8:6,D9:17").
func splitEvidence(ev []string) []string {
	var out []string
	for _, e := range ev {
		out = append(out, strings.FieldsFunc(e, func(r rune) bool { return r == ',' || r == ';' || r == ' ' })...)
	}
	return out
}
