package hooks_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/internal/adapters/hooks"
)

func TestParseTranscript(t *testing.T) {
	data := fixture(t, "transcript.jsonl", "/t.jsonl", "/home/kit/billing-ops")
	var warnings []string
	turns, err := hooks.ParseTranscript(bytes.NewReader(data), "t.jsonl", true, func(w string) { warnings = append(warnings, w) })
	if err != nil {
		t.Fatal(err)
	}
	want := []hooks.Turn{
		{Key: "0b0e6c1a-0000-4000-8000-000000000004", Role: "user", At: at("09:15:10.123"),
			Text: "Why does the nightly backup job fail on the billing replica?"},
		{Key: "0b0e6c1a-0000-4000-8000-000000000009", Role: "assistant", At: at("09:16:02"),
			Text: "The nightly backup fails because /var/backups on the billing replica is full: pg_dump stops with \"No space left on device\".\n\nI pruned the dumps older than 14 days and the job passes again."},
		{Key: "0b0e6c1a-0000-4000-8000-000000000011", Role: "user", At: at("09:20:00"),
			Text: "Push the fix with my token ghp_R2d2C3poLukeLeiaHanSoloChewbacca0123 to the zeppelin branch"},
		{Key: "0b0e6c1a-0000-4000-8000-000000000015", Role: "assistant", At: at("09:20:30"),
			Text: "Pushed the fix to the zeppelin branch."},
	}
	if len(turns) != len(want) {
		t.Fatalf("got %d turns, want %d: %+v", len(turns), len(want), turns)
	}
	for i := range want {
		if turns[i] != want[i] {
			t.Errorf("turn %d:\n got %+v\nwant %+v", i, turns[i], want[i])
		}
	}
	if len(warnings) != 1 || !strings.HasPrefix(warnings[0], "t.jsonl line 14: skipped") {
		t.Errorf("warnings: %q, want one for t.jsonl line 14", warnings)
	}

	// Not final (PreCompact): the last answer may still grow, and waits.
	turns, _ = hooks.ParseTranscript(bytes.NewReader(data), "t.jsonl", false, func(string) {})
	if len(turns) != 3 || turns[2].Role != "user" {
		t.Errorf("not final: got %+v, want the last answer left out", turns)
	}
}

func at(clock string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, "2026-11-20T"+clock+"Z")
	if err != nil {
		panic(err)
	}
	return t
}

func TestQuery(t *testing.T) {
	for _, tc := range []struct{ prompt, want string }{
		{"Why does the backup fail?", "Why does the backup fail?"},
		{"yes", ""},
		{"ok go", ""},
		{"/clear", ""},
		{"/review the backup script", ""},
		{"<system-reminder>x y z</system-reminder>continue", ""},
		{"  what did we decide about billing  ", "what did we decide about billing"},
	} {
		if got := hooks.Query(tc.prompt); got != tc.want {
			t.Errorf("Query(%q) = %q, want %q", tc.prompt, got, tc.want)
		}
	}
}

// A session run with a slash command keeps the command as the question of
// its answer; a local command (/model) that no answer follows is left out.
func TestParseTranscriptSlashCommand(t *testing.T) {
	lines := []string{
		`{"type":"user","uuid":"u1","timestamp":"2026-11-20T10:00:00Z","message":{"role":"user","content":"<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>"}}`,
		`{"type":"user","uuid":"u2","timestamp":"2026-11-20T10:00:01Z","isMeta":true,"message":{"role":"user","content":"<local-command-stdout>Set model to opus</local-command-stdout>"}}`,
		`{"type":"user","uuid":"u3","timestamp":"2026-11-20T10:01:00Z","message":{"role":"user","content":"<command-message>review is running…</command-message>\n<command-name>/review</command-name>\n<command-args>the billing backup script</command-args>"}}`,
		`{"type":"user","uuid":"u4","timestamp":"2026-11-20T10:01:00Z","isMeta":true,"message":{"role":"user","content":[{"type":"text","text":"Review the code the user names: the billing backup script"}]}}`,
		`{"type":"assistant","uuid":"a1","timestamp":"2026-11-20T10:01:30Z","message":{"role":"assistant","content":[{"type":"text","text":"The script never checks the free space before pg_dump."}]}}`,
	}
	turns, err := hooks.ParseTranscript(strings.NewReader(strings.Join(lines, "\n")), "t.jsonl", true, func(w string) { t.Error(w) })
	if err != nil {
		t.Fatal(err)
	}
	want := []hooks.Turn{
		{Key: "u3", Role: "user", At: at("10:01:00"), Text: "/review the billing backup script"},
		{Key: "a1", Role: "assistant", At: at("10:01:30"), Text: "The script never checks the free space before pg_dump."},
	}
	if len(turns) != len(want) {
		t.Fatalf("got %d turns, want %d: %+v", len(turns), len(want), turns)
	}
	for i := range want {
		if turns[i] != want[i] {
			t.Errorf("turn %d:\n got %+v\nwant %+v", i, turns[i], want[i])
		}
	}
}
