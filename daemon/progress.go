package daemon

import (
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/daybook/daybook/internal/util/progress"
)

// progress reports a long consolidation: a bar on a terminal, else a log
// line every tenth of the work or every interval, whichever comes first.
type reporter struct {
	bar      *progressbar.ProgressBar
	log      *slog.Logger
	what     string
	interval time.Duration

	mu       sync.Mutex
	lastLog  time.Time
	lastTent int
}

// newProgress starts reporting work called what. bar is the terminal to
// draw on, nil for log lines.
func newProgress(term io.Writer, log *slog.Logger, what string) *reporter {
	p := &reporter{log: log, what: what, interval: 10 * time.Second, lastLog: time.Now()}
	if term != nil {
		p.bar = progress.Bar(term, what, -1)
	}
	return p
}

// update is a consolidate or index Progress callback.
func (p *reporter) update(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		if p.bar.GetMax() != total {
			p.bar.ChangeMax(total)
		}
		p.bar.Set(done)
		return
	}
	tenth := 0
	if total > 0 {
		tenth = done * 10 / total
	}
	if tenth > p.lastTent || time.Since(p.lastLog) >= p.interval {
		p.lastTent, p.lastLog = tenth, time.Now()
		p.log.Info(p.what+" progress", "done", done, "total", total)
	}
}

// finish clears the bar.
func (p *reporter) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}
