package importer_test

import (
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/internal/adapters/importer"
)

func TestReadLoCoMo(t *testing.T) {
	convs, err := importer.ReadLoCoMo("testdata/locomo.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(convs) != 1 {
		t.Fatalf("got %d conversations, want 1", len(convs))
	}
	c := convs[0]
	if c.ID != "conv-1" || strings.Join(c.Speakers, ",") != "Caroline,Melanie" {
		t.Errorf("conversation %q speakers %v", c.ID, c.Speakers)
	}
	if len(c.Sessions) != 2 || c.Sessions[0].N != 1 || c.Sessions[1].N != 2 {
		t.Fatalf("sessions %+v", c.Sessions)
	}
	m := c.Sessions[0].Messages[1]
	want := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	if m.DiaID != "D1:2" || m.Speaker != "Melanie" || !m.At.Equal(want) || !strings.Contains(m.Caption, "sunrise") {
		t.Errorf("message %+v, want D1:2 by Melanie at %v with a caption", m, want)
	}
	if ev := c.Sessions[1].Events; len(ev) != 2 || ev[1] != (importer.Event{Speaker: "Melanie", Text: "Melanie runs a charity race for mental health"}) {
		t.Errorf("session 2 events %+v", ev)
	}
	if len(c.QA) != 3 || c.QA[2].Answer != "1" || strings.Join(c.QA[2].Evidence, ",") != "D2:1,D2:2" || c.QA[0].Evidence[0] != "D1:1" || c.QA[0].Category != 2 {
		t.Errorf("qa %+v", c.QA)
	}
}

// A REALTALK file: one conversation at the top, a time on each message.
func TestParseLoCoMoRealtalkShape(t *testing.T) {
	in := `{"name": {"speaker_1": "Ana", "speaker_2": "Bo"},
	"session_2": [{"clean_text": "later", "speaker": "Bo", "date_time": "30.12.2023, 09:00:00", "dia_id": "D2:1"}],
	"session_1": [
		{"clean_text": "Hi there", "speaker": "Ana", "date_time": "29.12.2023, 00:51:12", "dia_id": "D1:1"},
		{"clean_text": "no time", "speaker": "Bo", "date_time": "yesterday", "dia_id": "D1:2"}],
	"session_1_date_time": "29.12.2023, 00:51:12",
	"events_session_1": {"agent_a": [{"sub-event": "Ana goes skiing", "date": "", "caused_by": []}], "agent_b": []},
	"events_session_9": {"agent_a": [{"sub-event": "not a session of the file"}]},
	"qa": [{"question": "q?", "answer": "a", "evidence": ["D1:1"], "category": 1}]}`
	convs, err := importer.ParseLoCoMo("Chat_1", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	c := convs[0]
	if c.ID != "Chat_1" || strings.Join(c.Speakers, ",") != "Ana,Bo" || c.Sessions[0].N != 1 {
		t.Fatalf("got %+v", c)
	}
	if at := c.Sessions[0].Messages[0].At; !at.Equal(time.Date(2023, 12, 29, 0, 51, 12, 0, time.UTC)) {
		t.Errorf("D1:1 at %v", at)
	}
	if ev := c.Sessions[0].Events; len(ev) != 1 || ev[0] != (importer.Event{Speaker: "Ana", Text: "Ana goes skiing"}) || c.Sessions[1].Events != nil {
		t.Errorf("events %+v and %+v, want Ana's one in session 1", ev, c.Sessions[1].Events)
	}
	if bad := c.Sessions[0].Messages[1]; !bad.At.IsZero() || !strings.Contains(bad.TimeErr, `"yesterday"`) {
		t.Errorf("a bad time: At %v, TimeErr %q", bad.At, bad.TimeErr)
	}
}

func TestParseLoCoMoNotJSON(t *testing.T) {
	_, err := importer.ParseLoCoMo("x", strings.NewReader("session_1: hi"))
	if err == nil || !strings.Contains(err.Error(), "LoCoMo") || !strings.Contains(err.Error(), "x:1:1: invalid character") {
		t.Fatalf("err = %v, want one naming the source, line and column", err)
	}
}
