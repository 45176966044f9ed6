package consolidate_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/daybooktest"
)

// editingSummarizer saves a person's edit of the summary file while it is
// "thinking", as a slow model gives a person time to.
type editingSummarizer struct {
	consolidate.Summarizer
	path, text string
}

func (s *editingSummarizer) Summarize(ctx context.Context, in consolidate.Input) (string, error) {
	if in.Level == date.LevelDay {
		os.MkdirAll(filepath.Dir(s.path), 0o755)
		if err := os.WriteFile(s.path, []byte(s.text), 0o644); err != nil {
			return "", err
		}
	}
	return s.Summarizer.Summarize(ctx, in)
}

func TestEditDuringSummarizingIsKept(t *testing.T) {
	root := t.TempDir()
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	daybooktest.WriteDay(t, root, "2026-03-02", "- 09:00 [decision] Chose the blue one. #color")
	c, _ := newConsolidator(root, now)
	path, err := consolidate.SummaryPath(root, date.LevelDay, "2026-03-02")
	if err != nil {
		t.Fatal(err)
	}
	mine := "# My own notes on March 2\n\nWritten while daybook was summarizing.\n"
	c.Summarizer = &editingSummarizer{Summarizer: c.Summarizer, path: path, text: mine}
	day := date.MustParse("2026-03-02")
	st, err := c.Run(context.Background(), consolidate.RunOptions{Range: date.Range{From: day, To: day}, Level: date.LevelDay})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != mine {
		t.Fatalf("the person's edit was overwritten:\n%s", got)
	}
	if len(st.Kept) != 1 {
		t.Errorf("Kept = %v, want the day", st.Kept)
	}
}
