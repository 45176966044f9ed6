package ollama

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/util/logkey"
)

// UpgradeItem is a summary written by the offline summarizer that Ollama
// should redo.
type UpgradeItem struct {
	Level  date.Level
	Period string // 2026-11-22, 2026-11 or 2026
	Model  string // the summarizer that wrote it, "offline/extractive-v2"
}

// NeedsUpgrade reports whether a summary written by model should be redone
// once Ollama answers.
func NeedsUpgrade(model string) bool { return strings.HasPrefix(model, "offline/") }

// UpgradeOptions paces Upgrade.
type UpgradeOptions struct {
	// Pause is the least time between two items; 0 means DefaultUpgradePause.
	Pause time.Duration
	Now   func() time.Time // nil: time.Now
	Log   *slog.Logger
}

// DefaultUpgradePause is the least pause between two upgraded summaries.
const DefaultUpgradePause = 10 * time.Second

// UpgradeResult counts what Upgrade did.
type UpgradeResult struct {
	Redone int           // summaries rewritten
	Failed int           // items whose callback failed for another reason than an outage
	Left   []UpgradeItem // not tried: Ollama went away again or ctx ended
}

// Upgrade redoes items with redo, newest first (oldest last), one at a time.
// After each item it pauses for opt.Pause or for as long as the item took,
// whichever is longer, so upgrades keep Ollama busy at most half the time and
// never crowd out new work. It stops at the first error matching
// ErrUnavailable (redo should use the Ollama summarizer itself, not the
// fallback, so that an outage shows) and when ctx ends; the items not done
// are returned in Left for the next time Ollama is back. Other errors of an
// item are logged and counted, and the loop goes on.
//
// Sorting the periods in reverse puts a month after its days and a year
// after its months ("2026-11-02" > "2026-11-01" > "2026-11" > "2026-10-31"),
// so each summary is redone from summaries already upgraded.
func Upgrade(ctx context.Context, items []UpgradeItem, redo func(context.Context, UpgradeItem) error, opt UpgradeOptions) (UpgradeResult, error) {
	if opt.Pause <= 0 {
		opt.Pause = DefaultUpgradePause
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	log := opt.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log = log.With(logkey.System, "ollama")
	todo := slices.Clone(items)
	slices.SortStableFunc(todo, func(a, b UpgradeItem) int { return cmp.Compare(b.Period, a.Period) })

	var res UpgradeResult
	pause := opt.Pause
	for i, it := range todo {
		if i > 0 {
			if err := sleep(ctx, pause); err != nil {
				res.Left = todo[i:]
				return res, err
			}
		}
		start := opt.Now()
		err := redo(ctx, it)
		took := opt.Now().Sub(start)
		pause = max(opt.Pause, took)
		switch {
		case err == nil:
			res.Redone++
			log.Debug("summary upgraded", "level", it.Level, "period", it.Period, "from", it.Model, "took", took)
		case ctx.Err() != nil:
			res.Left = todo[i:]
			return res, ctx.Err()
		case errors.Is(err, ErrUnavailable):
			res.Left = todo[i:]
			log.Info("upgrading summaries paused: ollama unavailable", "done", res.Redone, "left", len(res.Left))
			return res, fmt.Errorf("upgrading %s %s: %w", it.Level, it.Period, err)
		default:
			res.Failed++
			log.Warn("upgrading a summary failed", "level", it.Level, "period", it.Period, "err", err)
		}
	}
	return res, nil
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
