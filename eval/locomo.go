package eval

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Conversation is one LoCoMo-format file: two people's messages over
// several sessions, and questions whose evidence names messages.
type Conversation struct {
	Name     string
	Messages []Message
	QA       []DialogueQuestion
}

// Message is one turn of a conversation.
type Message struct {
	ID      string // dia_id, "D3:12"
	Speaker string
	Text    string
	At      time.Time
}

// DialogueQuestion is one question of a conversation with the messages
// that answer it.
type DialogueQuestion struct {
	Question string
	Answer   string
	Evidence []string // dia_ids
	Category int      // 1 fact, 2 date, 3 inference (REALTALK); LoCoMo adds 4, 5
}

type locomoMessage struct {
	Speaker   string `json:"speaker"`
	CleanText string `json:"clean_text"`
	Text      string `json:"text"`
	DateTime  string `json:"date_time"`
	DiaID     string `json:"dia_id"`
}

type locomoQA struct {
	Question string          `json:"question"`
	Answer   json.RawMessage `json:"answer"`
	Evidence []string        `json:"evidence"`
	Category int             `json:"category"`
}

var sessionKey = regexp.MustCompile(`^session_(\d+)$`)

// ReadConversation reads one LoCoMo-format conversation. Messages take the
// time of their own date_time ("29.12.2023, 00:51:12", REALTALK) or else
// their session's session_N_date_time ("1:56 pm on 8 May, 2023", LoCoMo),
// a minute apart in order. Times are read in loc.
func ReadConversation(r io.Reader, name string, loc *time.Location) (Conversation, error) {
	var raw map[string]json.RawMessage
	if err := json.NewDecoder(r).Decode(&raw); err != nil {
		return Conversation{}, fmt.Errorf("%s: %w", name, err)
	}
	c := Conversation{Name: name}
	// A LoCoMo file may hold the sessions at its top or under "conversation".
	sessions := raw
	if inner, ok := raw["conversation"]; ok {
		if err := json.Unmarshal(inner, &sessions); err != nil {
			return c, fmt.Errorf("%s: conversation: %w", name, err)
		}
	}
	var nums []int
	for k := range sessions {
		if m := sessionKey.FindStringSubmatch(k); m != nil {
			n, _ := strconv.Atoi(m[1])
			nums = append(nums, n)
		}
	}
	sort.Ints(nums)
	if len(nums) == 0 {
		return c, fmt.Errorf("%s: no session_N lists", name)
	}
	for _, n := range nums {
		var msgs []locomoMessage
		key := fmt.Sprintf("session_%d", n)
		if err := json.Unmarshal(sessions[key], &msgs); err != nil {
			return c, fmt.Errorf("%s: %s: %w", name, key, err)
		}
		var start time.Time
		if s, ok := sessions[key+"_date_time"]; ok {
			var v string
			if json.Unmarshal(s, &v) == nil {
				start, _ = parseLoCoMoTime(v, loc)
			}
		}
		for i, m := range msgs {
			text := m.CleanText
			if text == "" {
				text = m.Text
			}
			at, err := parseLoCoMoTime(m.DateTime, loc)
			if m.DateTime == "" || err != nil {
				if start.IsZero() {
					return c, fmt.Errorf("%s: %s message %d (%s): no time: %q", name, key, i+1, m.DiaID, m.DateTime)
				}
				at = start.Add(time.Duration(i) * time.Minute)
			}
			c.Messages = append(c.Messages, Message{ID: m.DiaID, Speaker: m.Speaker, Text: text, At: at})
		}
	}
	if q, ok := raw["qa"]; ok {
		var qas []locomoQA
		if err := json.Unmarshal(q, &qas); err != nil {
			return c, fmt.Errorf("%s: qa: %w", name, err)
		}
		for _, x := range qas {
			ans := strings.Trim(string(x.Answer), `"`)
			c.QA = append(c.QA, DialogueQuestion{Question: x.Question, Answer: ans, Evidence: splitEvidence(x.Evidence), Category: x.Category})
		}
	}
	return c, nil
}

// splitEvidence takes evidence ids as written, some of them several to a
// string ("D1:3; D1:4").
func splitEvidence(ev []string) []string {
	var out []string
	for _, e := range ev {
		out = append(out, strings.FieldsFunc(e, func(r rune) bool { return r == ',' || r == ';' || r == ' ' })...)
	}
	return slices.Compact(out)
}

func parseLoCoMoTime(s string, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{"02.01.2006, 15:04:05", "2.1.2006, 15:04:05", "3:04 pm on 2 January, 2006", "3:04 pm on 2 Jan, 2006"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("bad time %q", s)
}
