package importer

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// addEvents sets the Events of c's sessions from the events the sample s
// (or its conversation conv) lists: LoCoMo's "event_summary" object, or
// REALTALK's "events_session_N" keys beside the sessions.
func addEvents(c *Conversation, s, conv map[string]json.RawMessage) error {
	lists := map[string]json.RawMessage{}
	if raw, ok := s["event_summary"]; ok {
		if err := json.Unmarshal(raw, &lists); err != nil {
			return fmt.Errorf("event_summary: %w", err)
		}
	}
	for _, m := range []map[string]json.RawMessage{s, conv} {
		for k, v := range m {
			if eventsKey().MatchString(k) {
				lists[k] = v
			}
		}
	}
	for k, raw := range lists {
		m := eventsKey().FindStringSubmatch(k)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		i := slices.IndexFunc(c.Sessions, func(x Session) bool { return x.N == n })
		if i < 0 {
			continue // events of a session the file does not have
		}
		evs, err := parseEvents(raw, c.Speakers)
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		c.Sessions[i].Events = evs
	}
	return nil
}

// parseEvents reads one session's events: an object of lists keyed by
// speaker name or by agent_a / agent_b (the first and second speaker), each
// item a string or an object with a "sub-event"; other keys ("date") are
// skipped. Speakers come in key order: agent_a, agent_b, then by name.
func parseEvents(raw json.RawMessage, speakers []string) ([]Event, error) {
	var byKey map[string]json.RawMessage
	if err := json.Unmarshal(raw, &byKey); err != nil {
		return nil, fmt.Errorf("not an object of event lists: %w", err)
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	slices.Sort(keys) // agent_a < agent_b, names in order: the same order on every read
	var out []Event
	for _, k := range keys {
		var items []json.RawMessage
		if json.Unmarshal(byKey[k], &items) != nil {
			continue // "date": "8 May, 2023"
		}
		who := k
		switch {
		case k == "agent_a" && len(speakers) > 0:
			who = speakers[0]
		case k == "agent_b" && len(speakers) > 1:
			who = speakers[1]
		}
		for _, it := range items {
			var text string
			if json.Unmarshal(it, &text) != nil {
				var obj struct {
					SubEvent string `json:"sub-event"`
				}
				if err := json.Unmarshal(it, &obj); err != nil {
					return nil, fmt.Errorf("%s: an event that is neither a string nor an object with a sub-event: %s", k, it)
				}
				text = obj.SubEvent
			}
			if text = strings.TrimSpace(text); text != "" {
				out = append(out, Event{Speaker: who, Text: text})
			}
		}
	}
	return out, nil
}
