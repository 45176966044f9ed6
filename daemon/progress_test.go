package daemon

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

func TestProgressBarOnTerminal(t *testing.T) {
	var term, logs bytes.Buffer
	p := newProgress(&term, slog.New(slog.NewTextHandler(&logs, nil)), "backfill")
	for i := 1; i <= 50; i++ {
		p.update(i, 50)
	}
	p.finish()
	if !strings.Contains(term.String(), "backfill") {
		t.Errorf("the bar does not show: %q", term.String())
	}
	if logs.Len() != 0 {
		t.Errorf("a bar also logged: %s", logs.String())
	}
}

func TestProgressLogLines(t *testing.T) {
	var logs bytes.Buffer
	p := newProgress(nil, slog.New(slog.NewTextHandler(&logs, nil)), "backfill")
	for i := 1; i <= 1000; i++ {
		p.update(i, 1000)
	}
	p.finish()
	// One line per tenth of the work, not one per period.
	if n := strings.Count(logs.String(), "msg=\"backfill progress\""); n != 10 {
		t.Errorf("%d progress lines, want 10:\n%s", n, logs.String())
	}
	if !strings.Contains(logs.String(), "done=1000 total=1000") {
		t.Errorf("no line for the end:\n%s", logs.String())
	}
}
