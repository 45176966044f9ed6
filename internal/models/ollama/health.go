package ollama

import (
	"log/slog"
	"sync"
	"time"

	"github.com/daybook/daybook/internal/util/logkey"
)

// DefaultCooldown is how long a wrapper leaves Ollama alone after a failure
// before it asks again. Meanwhile work goes to the fallback at once instead
// of waiting out a timeout per item.
const DefaultCooldown = 2 * time.Minute

// health follows whether Ollama answers, so that an outage is logged once
// when it starts and once when it ends, never once per item.
type health struct {
	what     string // "summaries", "embeddings"
	model    string
	log      *slog.Logger
	now      func() time.Time
	cooldown time.Duration

	mu       sync.Mutex
	down     bool
	since    time.Time // start of the outage
	retryAt  time.Time // the next time the primary is asked
	failures int       // in this outage
	lastErr  error
}

func newHealth(what, model string, log *slog.Logger) *health {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &health{what: what, model: model, log: log.With(logkey.System, "ollama"), now: time.Now, cooldown: DefaultCooldown}
}

// allow reports whether the primary should be asked now.
func (h *health) allow() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return !h.down || !h.now().Before(h.retryAt)
}

// failed records a failure of the primary; the first of an outage is logged
// as a warning, the others at debug level.
func (h *health) failed(err error, fallback string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.now()
	h.failures++
	h.lastErr = err
	h.retryAt = now.Add(h.cooldown)
	if h.down {
		h.log.Debug("ollama still unavailable", "for", h.what, "model", h.model, "failures", h.failures, "err", err)
		return
	}
	h.down, h.since, h.failures = true, now, 1
	h.log.Warn("ollama unavailable; using the fallback until it answers again",
		"for", h.what, "model", h.model, "fallback", fallback, "retry_in", h.cooldown, "err", err)
}

// succeeded records an answer of the primary and logs the end of an outage.
func (h *health) succeeded() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.down {
		return
	}
	h.log.Info("ollama answers again", "for", h.what, "model", h.model,
		"down_for", h.now().Sub(h.since).Round(time.Second), "failures", h.failures)
	h.down, h.failures, h.lastErr = false, 0, nil
}

// state returns the outage, if one is going on.
func (h *health) state() (down bool, since, retryAt time.Time, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.down, h.since, h.retryAt, h.lastErr
}
