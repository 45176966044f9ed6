package ollama

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/daybook/daybook/consolidate"
)

// FallbackSummarizer asks the primary summarizer (Ollama) and, when it fails,
// the offline one, for that summary. After a failure it goes straight to the
// offline one for Cooldown, then asks Ollama again. The start and the end of
// an outage are logged once each.
type FallbackSummarizer struct {
	primary, offline consolidate.Summarizer
	h                *health

	mu   sync.Mutex
	last string // the name of the summarizer that wrote the latest summary
}

// WithFallback wraps primary with offline as its fallback.
func WithFallback(primary, offline consolidate.Summarizer, log *slog.Logger) *FallbackSummarizer {
	return &FallbackSummarizer{primary: primary, offline: offline, h: newHealth("summaries", primary.Name(), log)}
}

// SetClock sets the clock and the cooldown; call it before first use.
func (f *FallbackSummarizer) SetClock(now func() time.Time, cooldown time.Duration) {
	f.h.now, f.h.cooldown = now, cooldown
}

// Summarize implements consolidate.Summarizer. Only the end of ctx makes it
// fail without asking the offline summarizer.
func (f *FallbackSummarizer) Summarize(ctx context.Context, in consolidate.Input) (string, error) {
	out, _, err := f.SummarizeNamed(ctx, in)
	return out, err
}

// SummarizeNamed is Summarize that also returns the Name of the summarizer
// that wrote the prose, for the summary's front matter.
func (f *FallbackSummarizer) SummarizeNamed(ctx context.Context, in consolidate.Input) (string, string, error) {
	if f.h.allow() {
		out, err := f.primary.Summarize(ctx, in)
		if err == nil {
			f.h.succeeded()
			return out, f.used(f.primary), nil
		}
		if ctx.Err() != nil {
			return "", "", ctx.Err()
		}
		f.h.failed(err, f.offline.Name())
	}
	out, err := f.offline.Summarize(ctx, in)
	return out, f.used(f.offline), err
}

// SummarizePrimary asks the primary (Ollama) only: what redoes an
// offline-made summary (see Upgrade) uses, so that an outage is an error
// matching ErrUnavailable rather than another offline summary. It shares
// the outage state with Summarize: during the cooldown it fails at once.
func (f *FallbackSummarizer) SummarizePrimary(ctx context.Context, in consolidate.Input) (string, error) {
	if !f.h.allow() {
		_, _, retryAt, err := f.h.state()
		return "", &UnavailableError{Op: "summarizing", Model: f.primary.Name(), RetryAfter: retryAt, Err: cause(err)}
	}
	out, err := f.primary.Summarize(ctx, in)
	if err == nil {
		f.h.succeeded()
		return out, nil
	}
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	f.h.failed(err, "none: offline-made summaries wait")
	_, _, retryAt, _ := f.h.state()
	return "", &UnavailableError{Op: "summarizing", Model: f.primary.Name(), RetryAfter: retryAt, Err: cause(err)}
}

// Available reports whether Ollama is asked now: no outage, or its
// cooldown is over.
func (f *FallbackSummarizer) Available() bool { return f.h.allow() }

// RetryAt returns when Ollama is asked again during an outage; zero when
// there is none.
func (f *FallbackSummarizer) RetryAt() time.Time {
	down, _, retryAt, _ := f.h.state()
	if !down {
		return time.Time{}
	}
	return retryAt
}

func (f *FallbackSummarizer) used(s consolidate.Summarizer) string {
	name := s.Name()
	f.mu.Lock()
	f.last = name
	f.mu.Unlock()
	return name
}

// Name is the name of the summarizer that wrote the latest summary (the one
// in use before the first). A caller that summarises concurrently should use
// SummarizeNamed instead.
func (f *FallbackSummarizer) Name() string {
	f.mu.Lock()
	last := f.last
	f.mu.Unlock()
	if last != "" {
		return last
	}
	return f.InUse()
}

// InUse names the summarizer the next summary goes to first: the offline
// one during an outage, else the primary.
func (f *FallbackSummarizer) InUse() string {
	if down, _, _, _ := f.h.state(); down {
		return f.offline.Name()
	}
	return f.primary.Name()
}

// Primary and Offline name the two summarizers, so that a caller can tell an
// offline-made summary to be redone (see Upgrade).
func (f *FallbackSummarizer) Primary() string { return f.primary.Name() }

// Offline names the fallback.
func (f *FallbackSummarizer) Offline() string { return f.offline.Name() }

// Outage reports whether Ollama is failing, since when, and why.
func (f *FallbackSummarizer) Outage() (down bool, since time.Time, err error) {
	down, since, _, err = f.h.state()
	return down, since, err
}
