package ollama

import (
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/util/logtest"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/internal/config"
)

// testConfig is the default Ollama config pointed at url, with timeouts
// short enough for tests.
func testConfig(url string) config.Ollama {
	c := config.Default().Ollama
	c.Enabled, c.URL = true, url
	c.Timeout, c.EmbedTimeout = 2*time.Second, 2*time.Second
	return c
}

// logBuffer is a slog text log in memory.
type logBuffer struct{ logtest.Buffer }

// count returns how many records of level hold substr.
func (l *logBuffer) count(level, substr string) int {
	n := 0
	for _, line := range strings.Split(l.String(), "\n") {
		if strings.Contains(line, "level="+level) && strings.Contains(line, substr) {
			n++
		}
	}
	return n
}

func newLog(t *testing.T) (*slog.Logger, *logBuffer) {
	lb := &logBuffer{}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("log:\n%s", lb.String())
		}
	})
	return slog.New(slog.NewTextHandler(lb, &slog.HandlerOptions{Level: slog.LevelDebug})), lb
}

// dayInput is a day of n entries.
func dayInput(n int) consolidate.Input {
	in := consolidate.Input{Level: date.LevelDay, Period: "2026-11-22", WordLimit: 120}
	for i := range n {
		in.Items = append(in.Items, consolidate.Item{
			ID: fmt.Sprintf("e%d", i), When: fmt.Sprintf("%02d:%02d", 8+i/60, i%60), Kind: "note",
			Text: fmt.Sprintf("Worked on the parser, step %d, and wrote down what broke.", i),
			Tags: []string{"parser"}, Ref: fmt.Sprintf("days/2026/11/22.md:%d", i+3),
		})
	}
	return in
}

// nWords returns a text of n words.
func nWords(n int) string { return strings.TrimSpace(strings.Repeat("They worked. ", n/2)) }

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
