package eval_test

import (
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/adapters/importer"
	"github.com/daybook/daybook/internal/tooling/eval"
)

func TestSpreadMovesDaysApartKeepingTimesAndOrder(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse("2006-01-02 15:04", s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	c := importer.Conversation{Sessions: []importer.Session{
		{N: 1, At: at("2024-01-30 09:00"), Messages: []importer.Message{
			{DiaID: "D1:1", At: at("2024-01-30 09:00")},
			{DiaID: "D1:2", At: at("2024-01-30 23:59")},
			{DiaID: "D1:3", At: at("2024-01-31 00:10")},
		}},
		{N: 2, Messages: []importer.Message{
			{DiaID: "D2:1", At: at("2024-02-03 12:00")},
			{DiaID: "D2:2"}, // no time: stays without one
		}},
	}}
	got := eval.Spread(c, 30)
	want := map[string]string{
		"D1:1": "2024-01-30 09:00", // the first day stays
		"D1:2": "2024-01-30 23:59",
		"D1:3": "2024-02-29 00:10", // the second distinct day: 30 days on, across a leap day
		"D2:1": "2024-03-30 12:00", // the third: 60 days on
	}
	for _, s := range got.Sessions {
		for _, m := range s.Messages {
			w, ok := want[m.DiaID]
			if !ok {
				if !m.At.IsZero() {
					t.Errorf("%s: got a time %v, want none", m.DiaID, m.At)
				}
				continue
			}
			if g := m.At.Format("2006-01-02 15:04"); g != w {
				t.Errorf("%s: got %s, want %s", m.DiaID, g, w)
			}
		}
	}
	if g := got.Sessions[0].At.Format("2006-01-02 15:04"); g != "2024-01-30 09:00" {
		t.Errorf("session 1 starts %s, want 2024-01-30 09:00", g)
	}
	if g := date.Of(c.Sessions[0].Messages[2].At).String(); g != "2024-01-31" {
		t.Errorf("the conversation given was changed: D1:3 is on %s", g)
	}
	if eval.Spread(c, 0).Sessions[1].Messages[0].At != c.Sessions[1].Messages[0].At {
		t.Error("Spread(c, 0) moved a message")
	}
}
