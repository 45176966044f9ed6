package daemon

import (
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress reports a long consolidation: a bar on a terminal, else a log
// line every tenth of the work or every interval, whichever comes first.
type progress struct {
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
func newProgress(bar io.Writer, log *slog.Logger, what string) *progress {
	p := &progress{log: log, what: what, interval: 10 * time.Second, lastLog: time.Now()}
	if bar != nil {
		p.bar = progressbar.NewOptions(-1,
			progressbar.OptionSetWriter(bar),
			progressbar.OptionSetDescription(what),
			progressbar.OptionShowCount(),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	return p
}

// update is a consolidate or index Progress callback.
func (p *progress) update(done, total int) {
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
func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}
