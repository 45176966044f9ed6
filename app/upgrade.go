package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/date"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/ollama"
)

// DefaultUpgradeEvery is how often the upgrade loop looks for work.
const DefaultUpgradeEvery = time.Minute

// How long redoing a summary waits for another consolidation to finish.
const (
	upgradeBusyWait  = 2 * time.Second
	upgradeBusyTries = 15
)

// upgradePart is the background upgrade: summaries the offline summarizer
// (or another model) wrote are redone by Ollama, and documents indexed
// during an outage get their vectors.
type upgradePart struct {
	mu    sync.Mutex
	pause time.Duration // least pause between two summaries; 0: ollama.DefaultUpgradePause
	every time.Duration // between two passes; 0: DefaultUpgradeEvery
	seen  map[string]upgradeSeen
	left  int // summaries to upgrade at the last look
}

// upgradeSeen is what a summary's front matter said at a size and time.
type upgradeSeen struct {
	size       int64
	mod        time.Time
	summarizer string
	edited     bool
}

// SetUpgradePacing sets the least pause between two upgraded summaries
// (0: ollama.DefaultUpgradePause, 10s) and how often UpgradeLoop looks for
// work (0: DefaultUpgradeEvery). Call it before UpgradeLoop.
func (a *App) SetUpgradePacing(pause, every time.Duration) {
	a.upg.mu.Lock()
	defer a.upg.mu.Unlock()
	a.upg.pause, a.upg.every = pause, every
}

// UpgradeReport says what an UpgradePass did.
type UpgradeReport struct {
	Filled      int       // vectors made for documents that waited for them
	VectorsLeft int       // documents still waiting
	Redone      int       // summaries rewritten by Ollama
	Failed      int       // summaries whose redo failed for another reason than an outage
	Left        int       // summaries still to upgrade
	Kept        int       // offline-made summaries a person edited: never upgraded
	RetryAt     time.Time // Ollama is unavailable until then; zero when it answered or was not asked
}

// UpgradeLoop runs the upgrade passes until ctx ends, one every
// DefaultUpgradeEvery (sooner when Ollama said when to ask again); the
// daemon starts it. Without ollama.enabled it returns nil at once. It
// returns nil when ctx ends.
func (a *App) UpgradeLoop(ctx context.Context) error {
	if !a.Config.Ollama.Enabled {
		return nil
	}
	log := a.Log.With("system", "upgrade")
	for {
		start := time.Now()
		rep, err := a.UpgradePass(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			log.Warn("upgrading summaries and vectors", "err", err)
		}
		if rep.Filled+rep.Redone+rep.Failed > 0 {
			log.Info("upgrade pass", "vectors", rep.Filled, "vectors_left", rep.VectorsLeft, "summaries", rep.Redone,
				"failed", rep.Failed, "summaries_left", rep.Left, "took", time.Since(start).Round(time.Millisecond))
		}
		a.upg.mu.Lock()
		wait := cmpOr(a.upg.every, DefaultUpgradeEvery)
		a.upg.mu.Unlock()
		if !rep.RetryAt.IsZero() {
			wait = min(wait, max(rep.RetryAt.Sub(a.Now()), time.Second))
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
	}
}

func cmpOr(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// UpgradePass does the background upgrade once, when ollama.enabled: it
// embeds the documents of the open index that wait for a vector, then
// redoes with Ollama, one at a time and paced by ollama.Upgrade, the
// summaries the offline summarizer wrote (newest first), or, when there
// are none, those another model wrote. A summary a person edited is never
// rewritten. It stops early, without an error, when Ollama goes away;
// RetryAt then says when it is worth trying again.
func (a *App) UpgradePass(ctx context.Context) (UpgradeReport, error) {
	var rep UpgradeReport
	if !a.Config.Ollama.Enabled {
		return rep, nil
	}
	if x := a.openIndex(); x != nil {
		st, err := x.FillVectors(ctx)
		rep.Filled, rep.VectorsLeft = st.Filled, st.Left
		switch {
		case ctx.Err() != nil:
			return rep, ctx.Err()
		case errors.Is(err, index.ErrUnavailable):
			rep.RetryAt = st.RetryAt
		case err != nil:
			a.Log.Warn("filling in vectors", "system", "upgrade", "err", err)
		}
	}
	f, ok := a.NewSummarizer().(*ollama.FallbackSummarizer)
	if !ok {
		return rep, nil // Ollama summaries are off: the config did not build them
	}
	offline, other, kept, err := a.upgradable(f.Primary())
	if err != nil {
		return rep, err
	}
	rep.Kept = kept
	items := offline
	if len(items) == 0 {
		items = other // only when no offline-made summary waits: those come first
	}
	rep.Left = len(offline) + len(other)
	a.setUpgradeLeft(rep.Left)
	if len(items) == 0 {
		return rep, nil
	}
	if !f.Available() {
		rep.RetryAt = f.RetryAt()
		return rep, nil
	}
	c := a.upgradeConsolidator(f)
	a.upg.mu.Lock()
	pause := a.upg.pause
	a.upg.mu.Unlock()
	res, err := ollama.Upgrade(ctx, items, func(ctx context.Context, it ollama.UpgradeItem) error {
		return a.redoSummary(ctx, c, f.Primary(), it)
	}, ollama.UpgradeOptions{Pause: pause, Log: a.Log})
	rep.Redone, rep.Failed = res.Redone, res.Failed
	rep.Left -= res.Redone
	a.setUpgradeLeft(rep.Left)
	var ue *ollama.UnavailableError
	switch {
	case ctx.Err() != nil:
		return rep, ctx.Err()
	case errors.As(err, &ue):
		rep.RetryAt = ue.RetryAfter
	case errors.Is(err, ollama.ErrUnavailable):
		rep.RetryAt = a.Now().Add(ollama.DefaultCooldown)
	case err != nil:
		return rep, err
	}
	return rep, nil
}

func (a *App) setUpgradeLeft(n int) {
	a.upg.mu.Lock()
	a.upg.left = n
	a.upg.mu.Unlock()
}

// upgradeLeft returns how many summaries waited for an upgrade at the last
// look.
func (a *App) upgradeLeft() int {
	a.upg.mu.Lock()
	defer a.upg.mu.Unlock()
	return a.upg.left
}

// upgradable lists the summaries daybook wrote with another summarizer than
// primary: offline-made ones and those of other models; kept counts the
// offline-made ones a person edited. Front matter is read again only for
// files whose size or time changed since the last look.
func (a *App) upgradable(primary string) (offline, other []ollama.UpgradeItem, kept int, err error) {
	files, err := consolidate.List(a.Dir, "", date.Range{})
	if err != nil {
		return nil, nil, 0, err
	}
	a.upg.mu.Lock()
	old := a.upg.seen
	a.upg.mu.Unlock()
	seen := make(map[string]upgradeSeen, len(files))
	for _, f := range files {
		s, ok := old[f.Rel]
		if !ok || s.size != f.Size || !s.mod.Equal(f.ModTime) {
			sum, err := consolidate.ReadSummary(f.Path)
			if err != nil {
				a.Log.Debug("not upgrading a summary that does not read", "system", "upgrade", "path", f.Rel, "err", err)
				continue
			}
			s = upgradeSeen{size: f.Size, mod: f.ModTime, summarizer: sum.Summarizer, edited: sum.Edited()}
		}
		seen[f.Rel] = s
		switch {
		case s.summarizer == primary:
		case s.edited:
			if ollama.NeedsUpgrade(s.summarizer) {
				kept++
			}
		case ollama.NeedsUpgrade(s.summarizer):
			offline = append(offline, ollama.UpgradeItem{Level: f.Period.Level, Period: f.Period.String(), Model: s.summarizer})
		default:
			other = append(other, ollama.UpgradeItem{Level: f.Period.Level, Period: f.Period.String(), Model: s.summarizer})
		}
	}
	a.upg.mu.Lock()
	a.upg.seen = seen
	a.upg.mu.Unlock()
	return offline, other, kept, nil
}

// primaryOnly is the summarizer of an upgrade: Ollama without the offline
// fallback, so that an outage stops the upgrade instead of writing another
// offline summary.
type primaryOnly struct{ f *ollama.FallbackSummarizer }

func (p primaryOnly) Name() string { return p.f.Primary() }

func (p primaryOnly) Summarize(ctx context.Context, in consolidate.Input) (string, error) {
	return p.f.SummarizePrimary(ctx, in)
}

// upgradeConsolidator is the App's Consolidator (its hooks index what it
// writes) with Ollama alone as its summarizer.
func (a *App) upgradeConsolidator(f *ollama.FallbackSummarizer) *consolidate.Consolidator {
	c := *a.Consolidator()
	c.Summarizer = primaryOnly{f}
	return &c
}

// redoSummary rewrites one summary with c, unless it changed since it was
// listed (a consolidation redid it, or a person edited it). Another
// consolidation running is waited for.
func (a *App) redoSummary(ctx context.Context, c *consolidate.Consolidator, primary string, it ollama.UpgradeItem) error {
	p, err := consolidate.ParsePeriod(it.Level, it.Period)
	if err != nil {
		return err
	}
	s, err := consolidate.ReadSummary(p.Path(a.Dir))
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil // removed since
	case err != nil:
		return err
	case s.Edited() || s.Summarizer == primary:
		return nil
	}
	for try := 1; ; try++ {
		st, err := c.Run(ctx, consolidate.RunOptions{Range: p.Range(), Level: p.Level, Upgrade: true})
		var busy *consolidate.BusyError
		if errors.As(err, &busy) && try < upgradeBusyTries {
			t := time.NewTimer(upgradeBusyWait)
			select {
			case <-ctx.Done():
				t.Stop()
				return ctx.Err()
			case <-t.C:
			}
			continue
		}
		if err != nil {
			return err
		}
		if st.Written() == 0 && len(st.Removed) == 0 {
			return fmt.Errorf("%s was not rewritten (kept: %v, skipped: %v)", p.Rel(), st.Kept, st.Skipped)
		}
		return nil
	}
}
