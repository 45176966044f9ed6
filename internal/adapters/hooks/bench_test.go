package hooks_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/internal/adapters/hooks"
)

// writeTranscript writes a Claude Code transcript of at least size bytes
// to path: turns of a prompt, a tool call, its output (most of the bytes,
// as in real sessions) and a final answer. It returns the number of turns.
func writeTranscript(tb testing.TB, path string, size int) int {
	tb.Helper()
	var b strings.Builder
	start := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
	line := func(v map[string]any) {
		data, err := json.Marshal(v)
		if err != nil {
			tb.Fatal(err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	output := strings.Repeat("ok  \tgithub.com/daybook/daybook/internal/adapters/hooks\t0.012s\n", 60)
	n := 0
	for ; b.Len() < size; n++ {
		at := func(s int) string {
			return start.Add(time.Duration(n)*time.Minute + time.Duration(s)*time.Second).Format(time.RFC3339Nano)
		}
		id := func(k int) string { return fmt.Sprintf("00000000-0000-4000-8000-%06d%06d", n, k) }
		line(map[string]any{"type": "user", "uuid": id(1), "timestamp": at(0), "sessionId": "s",
			"message": map[string]any{"role": "user", "content": fmt.Sprintf("Turn %d: run the tests of the hooks package and tell me what failed", n)}})
		line(map[string]any{"type": "assistant", "uuid": id(2), "timestamp": at(5),
			"message": map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": "t", "name": "Bash", "input": map[string]any{"command": "go test ./..."}}}}})
		line(map[string]any{"type": "user", "uuid": id(3), "timestamp": at(20),
			"message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "t", "content": output}}}})
		line(map[string]any{"type": "assistant", "uuid": id(4), "timestamp": at(30),
			"message": map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": fmt.Sprintf("All tests pass in turn %d; nothing failed.", n)}}}})
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return n
}

// BenchmarkCapture2MB captures a 2 MB transcript into a real App: first
// into an empty data dir (every turn written), then again (nothing new).
// The target is a capture well under a second.
func BenchmarkCapture2MB(b *testing.B) {
	root := b.TempDir()
	transcript := filepath.Join(root, "t.jsonl")
	turns := writeTranscript(b, transcript, 2<<20)
	in := hooks.Input{SessionID: "s", TranscriptPath: transcript, Cwd: root, HookEventName: "Stop"}
	ctx := context.Background()
	b.Run("first", func(b *testing.B) {
		for i := range b.N {
			b.StopTimer()
			dir := filepath.Join(root, fmt.Sprint("data", b.N, "-", i))
			a := newApp(b, dir)
			b.StartTimer()
			res, err := hooks.Capture(ctx, a, in, hooks.CaptureOptions{Dir: dir, Final: true})
			if err != nil || res.Added != 2*turns {
				b.Fatalf("%+v %v; want %d added", res, err, 2*turns)
			}
		}
	})
	b.Run("again", func(b *testing.B) {
		dir := filepath.Join(root, "again")
		a := newApp(b, dir)
		if _, err := hooks.Capture(ctx, a, in, hooks.CaptureOptions{Dir: dir, Final: true}); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for range b.N {
			res, err := hooks.Capture(ctx, a, in, hooks.CaptureOptions{Dir: dir, Final: true})
			if err != nil || res.Added != 0 {
				b.Fatalf("%+v %v", res, err)
			}
		}
	})
}

// BenchmarkCaptureHugePrompt captures a transcript whose one prompt is a
// 20 MB paste (a log, with a key in its first lines) into a real App. The
// prompt is cut to the entry's share before it is redacted: the capture
// costs what a small one does, not a pass of every pattern over 20 MB.
func BenchmarkCaptureHugePrompt(b *testing.B) {
	root := b.TempDir()
	transcript := filepath.Join(root, "t.jsonl")
	var paste strings.Builder
	paste.WriteString("please look at this log, the key is AKIAIOSFODNN7EXAMPLE\n")
	for paste.Len() < 20<<20 {
		paste.WriteString("2026-11-20T08:00:00Z INFO request served path=/api/v1/items status=200 took=12ms\n")
	}
	start := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
	var data strings.Builder
	for i, v := range []map[string]any{
		{"type": "user", "uuid": "00000000-0000-4000-8000-000000000001", "timestamp": start.Format(time.RFC3339Nano), "sessionId": "s",
			"message": map[string]any{"role": "user", "content": paste.String()}},
		{"type": "assistant", "uuid": "00000000-0000-4000-8000-000000000002", "timestamp": start.Add(time.Minute).Format(time.RFC3339Nano),
			"message": map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": "The log shows no errors."}}}},
	} {
		line, err := json.Marshal(v)
		if err != nil {
			b.Fatal(i, err)
		}
		data.Write(line)
		data.WriteByte('\n')
	}
	if err := os.WriteFile(transcript, []byte(data.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	in := hooks.Input{SessionID: "s", TranscriptPath: transcript, Cwd: root, HookEventName: "Stop"}
	ctx := context.Background()
	b.ReportAllocs()
	for i := range b.N {
		b.StopTimer()
		dir := filepath.Join(root, fmt.Sprint("data", b.N, "-", i))
		a := newApp(b, dir)
		b.StartTimer()
		res, err := hooks.Capture(ctx, a, in, hooks.CaptureOptions{Dir: dir, Final: true})
		if err != nil || res.Added != 2 {
			b.Fatalf("%+v %v; want 2 added", res, err)
		}
	}
}
