package hooks_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/adapters/hooks"
	"github.com/daybook/daybook/internal/spool"
)

func input(t testing.TB, s session, name string) hooks.Input {
	t.Helper()
	var in hooks.Input
	if err := json.Unmarshal(fixture(t, name, s.transcript, s.project), &in); err != nil {
		t.Fatal(err)
	}
	return in
}

// dayFile returns the day file of the fixture's session.
func dayFile(t testing.TB, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "days", "2026", "11", "20.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// wantOnce checks that each captured turn is in day exactly once, and what
// must never be.
func wantOnce(t *testing.T, day string, turns ...string) {
	t.Helper()
	for _, s := range turns {
		if n := strings.Count(day, s); n != 1 {
			t.Errorf("%q is in the day file %d times, want once:\n%s", s, n, day)
		}
	}
	for _, never := range []string{"ghp_R2d2", "wJalrXUtnFEMI", "Let me look at the cron log", "pg_dump: error", "TodoWrite",
		"Subagent", "Caveat", "/model", "check the cron log first", "backup.sh in the IDE"} {
		if strings.Contains(day, never) {
			t.Errorf("the day file holds %q, which capture must leave out:\n%s", never, day)
		}
	}
}

var fixtureTurns = []string{
	"- 09:15 User: Why does the nightly backup job fail on the billing replica? #claude-code #session-3f6a2c1e #project-billing-ops\n",
	"- 09:16 Assistant: The nightly backup fails because /var/backups on the billing replica is full",
	"  I pruned the dumps older than 14 days and the job passes again.\n",
	"- 09:20 User: Push the fix with my token [secret removed] to the zeppelin branch #claude-code",
	"- 09:20 Assistant: Pushed the fix to the zeppelin branch. #claude-code",
}

// TestCaptureIdempotent captures the same transcript 1,000 times, every
// 100th with the session's state gone (the day files alone then tell what is
// there), and then a longer one: each turn is in the day file once.
func TestCaptureIdempotent(t *testing.T) {
	s := newSession(t)
	a := newApp(t, s.dir)
	in := input(t, s, "stop.json")
	ctx := context.Background()
	var warnings []string
	opt := hooks.CaptureOptions{Dir: s.dir, Final: true, Warn: func(w string) { warnings = append(warnings, w) }}
	res, err := hooks.Capture(ctx, a, in, opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Turns != 4 || res.Added != 4 {
		t.Fatalf("first capture: %+v, want 4 turns added", res)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], s.transcript+" line 14: skipped") {
		t.Errorf("warnings: %q, want one naming %s line 14", warnings, s.transcript)
	}
	state := filepath.Join(s.dir, hooks.StateDir, "sessions", in.SessionID+".json")
	for i := range 1000 {
		if i%100 == 0 {
			if err := os.Remove(state); err != nil {
				t.Fatal(err)
			}
		}
		res, err := hooks.Capture(ctx, a, in, opt)
		if err != nil {
			t.Fatal(err)
		}
		if res.Added != 0 {
			t.Fatalf("capture %d added %d entries: %+v", i+2, res.Added, res)
		}
	}
	wantOnce(t, dayFile(t, s.dir), fixtureTurns...)

	s.write(t, "transcript.jsonl", "transcript-more.jsonl")
	res, err = hooks.Capture(ctx, a, in, opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.New != 2 || res.Added != 2 {
		t.Fatalf("a longer transcript: %+v, want its 2 new turns added", res)
	}
	wantOnce(t, dayFile(t, s.dir), append(fixtureTurns,
		"- 10:02 User: Add an alert when /var/backups is over 80 percent full",
		"- 10:03 Assistant: Added a disk alert at 80 percent")...)
}

// TestCapturePreCompact leaves the last answer for a later capture, which
// adds it once.
func TestCapturePreCompact(t *testing.T) {
	s := newSession(t)
	a := newApp(t, s.dir)
	ctx := context.Background()
	res, err := hooks.Capture(ctx, a, input(t, s, "precompact.json"), hooks.CaptureOptions{Dir: s.dir})
	if err != nil || res.Added != 3 {
		t.Fatalf("PreCompact: %+v, %v; want the 3 closed turns", res, err)
	}
	if strings.Contains(dayFile(t, s.dir), "Pushed the fix") {
		t.Error("PreCompact wrote the answer of the open turn")
	}
	res, err = hooks.Capture(ctx, a, input(t, s, "sessionend.json"), hooks.CaptureOptions{Dir: s.dir, Final: true})
	if err != nil || res.Added != 1 {
		t.Fatalf("SessionEnd: %+v, %v; want the last answer", res, err)
	}
	wantOnce(t, dayFile(t, s.dir), fixtureTurns...)
}

// failing is a daemon that stopped: every import fails.
type failing struct{}

func (failing) Import(context.Context, io.Reader, daybook.ImportOptions) (daybook.ImportResponse, error) {
	return daybook.ImportResponse{}, errors.New("connection refused")
}

// TestCaptureSpool keeps what cannot be written, without a daemon or with
// one that fails, and writes it once at the next capture that can.
func TestCaptureSpool(t *testing.T) {
	s := newSession(t)
	ctx := context.Background()
	in := input(t, s, "stop.json")
	res, err := hooks.Capture(ctx, nil, in, hooks.CaptureOptions{Dir: s.dir, Final: true})
	if err != nil || res.Spooled != 4 {
		t.Fatalf("no daemon: %+v, %v; want 4 spooled", res, err)
	}
	s.write(t, "transcript.jsonl", "transcript-more.jsonl")
	res, err = hooks.Capture(ctx, failing{}, in, hooks.CaptureOptions{Dir: s.dir, Final: true, Warn: func(string) {}})
	if err != nil || res.Spooled != 2 {
		t.Fatalf("a failing daemon: %+v, %v; want the 2 new turns spooled", res, err)
	}
	sp := spool.New(s.dir)
	data, err := os.ReadFile(sp.Path())
	if err != nil || strings.Count(string(data), "\n") != 6 {
		t.Fatalf("spool: %v\n%s", err, data)
	}
	if strings.Contains(string(data), "ghp_R2d2") {
		t.Error("the spool holds the secret")
	}

	// A capture with the daemon back adds nothing new; the daemon's
	// replay (the spool's one path) writes the six, once.
	a := newApp(t, s.dir)
	res, err = hooks.Capture(ctx, a, in, hooks.CaptureOptions{Dir: s.dir, Final: true})
	if err != nil || res.New != 0 {
		t.Fatalf("with a daemon again: %+v, %v; want nothing new", res, err)
	}
	rr, err := sp.Replay(ctx, a)
	if err != nil || len(rr.Written) != 6 || rr.Left != 0 || rr.Dead != 0 {
		t.Fatalf("replay: %+v, %v; want the 6 spooled entries written", rr, err)
	}
	if _, err := os.Stat(sp.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the written spool is still there: %v", err)
	}
	if rr, err := sp.Replay(ctx, a); len(rr.Written) != 0 || err != nil {
		t.Errorf("a second replay: %+v, %v", rr, err)
	}
	wantOnce(t, dayFile(t, s.dir), fixtureTurns...)
}

func TestNoCapture(t *testing.T) {
	s := newSession(t)
	sub := filepath.Join(s.project, "cmd", "tool")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	none := func(string) string { return "" }
	if why := hooks.NoCapture(sub, none); why != "" {
		t.Fatalf("capture off without a reason: %s", why)
	}
	if why := hooks.NoCapture(sub, func(k string) string { return map[string]string{hooks.NoCaptureEnv: "1"}[k] }); why == "" {
		t.Error("$DAYBOOK_NOCAPTURE=1 left capture on")
	}
	if err := os.WriteFile(filepath.Join(s.project, hooks.NoCaptureFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if why := hooks.NoCapture(sub, none); !strings.Contains(why, hooks.NoCaptureFile) {
		t.Errorf("a %s above the folder left capture on: %q", hooks.NoCaptureFile, why)
	}
}

// TestPromptContext hands the block over only when recall finds something
// for a prompt with words of its own.
func TestPromptContext(t *testing.T) {
	s := newSession(t)
	a := newApp(t, s.dir)
	ctx := context.Background()
	if _, err := a.Remember(ctx, daybook.RememberRequest{Text: "The nightly backup of the billing replica failed: disk full", At: "2026-11-18 17:00"}); err != nil {
		t.Fatal(err)
	}
	md, ok, err := hooks.PromptContext(ctx, a, "why does the billing backup fail?", 500, nil)
	if err != nil || !ok || !strings.Contains(md, "disk full") {
		t.Errorf("a prompt with an answer: %v %v\n%s", ok, err, md)
	}
	for _, p := range []string{"explain quaternion gimbal lock", "yes", "/compact"} {
		if md, ok, err := hooks.PromptContext(ctx, a, p, 500, nil); err != nil || ok || md != "" {
			t.Errorf("%q: %v %v %q, want nothing", p, ok, err, md)
		}
	}
	md, err = hooks.SessionContext(ctx, a, 500, nil, "startup", time.Now())
	if err != nil || !strings.Contains(md, "disk full") {
		t.Errorf("session start: %v\n%s", err, md)
	}
}

// TestCaptureHugePrompt: a 2 MB prompt with keys at its start and across
// the point where it is cut is stored cut, with no key, whole or in part.
func TestCaptureHugePrompt(t *testing.T) {
	root := t.TempDir()
	transcript := filepath.Join(root, "t.jsonl")
	const maxText = 4000
	var paste strings.Builder
	paste.WriteString("look at this, my password is hunter2x and the key AKIAIOSFODNN7EXAMPLE\n")
	for paste.Len() < maxText-20 {
		paste.WriteString("served /api/v1/items 200\n")
	}
	paste.WriteString("token ghp_4f8Kz2Lq9Rm3Nx7Vb1Ct5Yh6Jw0Pd8Se2Ua4Io then more\n")
	for paste.Len() < 2<<20 {
		paste.WriteString("served /api/v1/items 200\n")
	}
	line, err := json.Marshal(map[string]any{"type": "user", "uuid": "00000000-0000-4000-8000-000000000001",
		"timestamp": "2026-11-20T08:00:00Z", "sessionId": "s", "message": map[string]any{"role": "user", "content": paste.String()}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(transcript, append(line, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "data")
	a := newApp(t, dir)
	in := hooks.Input{SessionID: "s", TranscriptPath: transcript, Cwd: root, HookEventName: "Stop"}
	res, err := hooks.Capture(context.Background(), a, in, hooks.CaptureOptions{Dir: dir, Final: true, MaxText: maxText})
	if err != nil || res.Added != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	day := dayFile(t, dir)
	for _, s := range []string{"hunter2x", "AKIAIOSFODNN7EXAMPLE", "ghp_", "4f8Kz2Lq9"} {
		if strings.Contains(day, s) {
			t.Errorf("the day file holds %q", s)
		}
	}
	if len(day) > maxText+1024 {
		t.Errorf("the day file is %d bytes: the prompt was not cut to %d", len(day), maxText)
	}
}

// TestCaptureFlattens captures turns the hook no longer checks itself (it
// links no markdown parser): one whose markdown would end its entry early is
// written by the App as one paragraph, and one past an entry's limit is cut
// to fit, both through the import a capture asks for.
func TestCaptureFlattens(t *testing.T) {
	s := newSession(t)
	a := newApp(t, s.dir)
	line := func(uuid, at, text string) string {
		b, _ := json.Marshal(map[string]any{"type": "user", "sessionId": "3f6a2c1e-8b9d-4e5f-a1b2-c3d4e5f60718", "cwd": s.project,
			"uuid": uuid, "timestamp": at, "message": map[string]any{"role": "user", "content": text}})
		return string(b) + "\n"
	}
	long := strings.Repeat("zeppelin ", 80<<10/9)
	transcript := line("u1", "2026-11-20T09:30:00.000Z", "0\n\n*\n\nlost ballast") +
		line("u2", "2026-11-20T09:31:00.000Z", long)
	if err := os.WriteFile(s.transcript, []byte(transcript), 0o644); err != nil {
		t.Fatal(err)
	}
	var warnings []string
	res, err := hooks.Capture(context.Background(), a, input(t, s, "stop.json"),
		hooks.CaptureOptions{Dir: s.dir, Final: true, Warn: func(w string) { warnings = append(warnings, w) }})
	if err != nil {
		t.Fatal(err)
	}
	if res.Added != 2 || len(warnings) != 0 {
		t.Fatalf("capture: %+v, warnings %q; want both turns added", res, warnings)
	}
	day := dayFile(t, s.dir)
	if !strings.Contains(day, "- 09:30 User: 0 * lost ballast #claude-code") {
		t.Errorf("the turn whose markdown would end its entry is not one paragraph:\n%.400s", day)
	}
	if !strings.Contains(day, "- 09:31 User: zeppelin zeppelin") || !strings.Contains(day, " … #claude-code") {
		t.Errorf("the long turn is not cut to fit:\n%.200s", day[strings.Index(day, "09:31"):])
	}
}
