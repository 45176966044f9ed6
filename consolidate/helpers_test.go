package consolidate_test

import (
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/internal/daybooktest"
	"github.com/daybook/daybook/internal/util/logtest"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/models/offline"
)

// logBuffer collects log lines for assertions.
type logBuffer = logtest.Buffer

// newConsolidator returns a Consolidator over root with the offline
// summarizer, in UTC, whose clock reads now, logging into the returned buffer.
func newConsolidator(root string, now time.Time) (*consolidate.Consolidator, *logBuffer) {
	logs := &logBuffer{}
	return &consolidate.Consolidator{
		Root: root, Loc: time.UTC, Summarizer: offline.NewSummarizer(),
		Log: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Now: func() time.Time { return now },
	}, logs
}

// appendLine appends a line to a day file, as an editor would, and moves
// its time on so that the change shows even on a coarse clock.
func appendLine(t testing.TB, root, day, line string) {
	t.Helper()
	path := dayfiles.Path(root, date.MustParse(day))
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(line + "\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	bump(t, path)
}

// bump moves a file's modification time a second on.
func bump(t testing.TB, path string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	at := fi.ModTime().Add(time.Second)
	if err := os.Chtimes(path, at, at); err != nil {
		t.Fatal(err)
	}
}

// summaryTimes returns the modification time of every summary file by its
// path relative to root.
func summaryTimes(t testing.TB, root string) map[string]time.Time {
	t.Helper()
	out := daybooktest.ModTimes(t, root, consolidate.SummariesDir)
	for rel := range out {
		if !strings.HasSuffix(rel, ".md") {
			delete(out, rel)
		}
	}
	return out
}

// changed returns the paths whose time differs between two summaryTimes,
// or that are in only one of them, sorted.
func changed(a, b map[string]time.Time) []string {
	var out []string
	for k, v := range b {
		if w, ok := a[k]; !ok || !w.Equal(v) {
			out = append(out, k)
		}
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			out = append(out, k)
		}
	}
	sortStrings(out)
	return out
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func readSummary(t testing.TB, root string, level date.Level, period string) *consolidate.Summary {
	t.Helper()
	path, err := consolidate.SummaryPath(root, level, period)
	if err != nil {
		t.Fatal(err)
	}
	s, err := consolidate.ReadSummary(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
