package eval_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/app/apptest"
	"github.com/daybook/daybook/internal/tooling/eval"
)

// The updates eval on a tiny planted memory whose answers are known: the
// garage door code changed and a captured agent session echoed the old
// one; the bike shed code was noted once and is asked about as if it had
// changed to a value no entry holds. The first is found first and its
// block leads with 5521; the second's statement is found, but no line of
// its block names the value the question calls current.
func TestUpdatesOnAPlantedMemory(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := apptest.New(t, dir, apptest.At(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)))
	cc := []string{"claude-code", "session-1a2b3c4d"}
	for _, r := range []daybook.RememberRequest{
		{At: "2026-03-02T09:10:00Z", Text: "The garage door code is 4417."},
		{At: "2026-03-02T09:30:00Z", Text: "Bought new tyres for the car."},
		{At: "2026-04-11T08:00:00Z", Text: "The bike shed code is 1357."},
		{At: "2026-06-14T18:05:00Z", Text: "Changed the garage door code to 5521 after the break-in."},
		{At: "2026-09-20T10:00:00Z", Text: "User: what is the garage door code?", Tags: cc},
		{At: "2026-09-20T10:01:00Z", Text: "Assistant: The garage door code is 4417 (from your note of 2 March).", Tags: cc},
	} {
		if _, err := a.Remember(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	file := `{"q": "what is the garage door code?", "current": "5521", "old": ["4417"], "day": "2026-06-14", "text": "Changed the garage door code to 5521 after the break-in.", "echo": true}

{"q": "what is the bike shed code?", "current": "2468", "old": ["1357"], "day": "2026-04-11", "text": "The bike shed code is 1357."}
`
	qs, err := eval.ReadUpdates(strings.NewReader(file), "updates.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := eval.Updates(ctx, a, dir, qs, []int{400})
	if err != nil {
		t.Fatal(err)
	}
	garage, shed := rep.Results[0], rep.Results[1]
	if garage.Rank != 1 || !garage.Leads[0] || !garage.Marked[0] || !garage.OK(0) || garage.Line != 1 {
		t.Errorf("garage: %+v; want rank 1, a block that leads with 5521 and marks 4417, line 1", garage)
	}
	if !strings.Contains(garage.First[0], "5521") {
		t.Errorf("garage: the first line naming a value is %q", garage.First[0])
	}
	if shed.Rank != 1 || shed.Leads[0] || shed.Current[0] || shed.OK(0) || shed.Line != 3 {
		t.Errorf("shed: %+v; want its statement first, a block without 2468, line 3", shed)
	}
	var out bytes.Buffer
	if err := rep.WriteTable(&out); err != nil {
		t.Fatal(err)
	}
	// all: 2 questions, hit@1 100, MRR 1, leads 50, ok 50.
	if !strings.Contains(out.String(), "all          2  100.0  1.000       50.0    50.0") {
		t.Errorf("table:\n%s", out.String())
	}
}

// A block that leads with an old value hands the change over only when
// it marks every line of an old value superseded and names the current
// one; a value inside a longer word is not named.
func TestUpdatesJudgesBlocks(t *testing.T) {
	qs, err := eval.ReadUpdates(strings.NewReader(`{"q": "code?", "current": "5521", "old": ["4417"], "day": "2026-06-14", "text": "x"}`), "f")
	if err != nil {
		t.Fatal(err)
	}
	blocks := []struct {
		block     string
		leads, ok bool
	}{
		{"Query: 4417 or 5521?\n- :3 09:10 The code is 5521.\n- :4 09:11 It was 4417.", true, true},
		{"- :3 09:10 The code is 4417.\n- :4 09:11 The code is 5521.", false, false},
		{"- :3 09:10 (superseded by [2026-06-14T18:05-ab]) The code is 4417.\n- :4 09:11 The code is 5521.", false, true},
		{"- :3 09:10 (superseded by [2026-06-14T18:05-ab]) The code is 4417.", false, false},
		{"- :3 09:10 Room 44170 and 55210.\n- :4 The code is 5521.", true, true},
	}
	for _, b := range blocks {
		r := eval.UpdateResult{Leads: []bool{false}, Marked: []bool{false}, Current: []bool{false}}
		r.Leads[0], r.Marked[0], r.Current[0], _ = eval.JudgeBlock(b.block, qs[0])
		if r.Leads[0] != b.leads || r.OK(0) != b.ok {
			t.Errorf("block %q: leads %v, ok %v; want %v, %v", b.block, r.Leads[0], r.OK(0), b.leads, b.ok)
		}
	}
}
