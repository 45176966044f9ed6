package ollama

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/util/logkey"
)

// DefaultUpgradeEvery is how often Upgrader.Loop looks for work.
const DefaultUpgradeEvery = time.Minute

// How long redoing a summary waits for another consolidation to finish.
const (
	upgradeBusyWait  = 2 * time.Second
	upgradeBusyTries = 15
)

// VectorFiller is the index as the upgrade sees it: documents indexed
// during an outage wait there for their vectors. *index.Index is one.
type VectorFiller interface {
	FillVectors(ctx context.Context) (index.FillStats, error)
}

// Upgrader is the background upgrade of one data dir: summaries the
// offline summarizer (or another model) wrote are redone by Ollama, and
// documents indexed during an outage get their vectors. Its fields are set
// before the first Pass; its state (what it saw of each summary) is its own.
type Upgrader struct {
	Dir string // the data dir
	// Summarizer returns consolidation's summarizer; summaries are redone
	// only when it is a *FallbackSummarizer (Ollama's summaries are on).
	Summarizer func() consolidate.Summarizer
	// Consolidator returns the consolidator whose hooks index what it
	// writes; the upgrade runs a copy of it with Ollama alone.
	Consolidator func() *consolidate.Consolidator
	// Vectors returns the open index, nil when it is not open.
	Vectors func() VectorFiller
	Pause   time.Duration    // least pause between two summaries; 0: DefaultUpgradePause
	Every   time.Duration    // between two passes of Loop; 0: DefaultUpgradeEvery
	Now     func() time.Time // nil: time.Now
	Log     *slog.Logger     // nil: discard

	mu   sync.Mutex
	seen map[string]upgradeSeen
	left int // summaries to upgrade at the last look
}

// upgradeSeen is what a summary's front matter said at a size and time.
type upgradeSeen struct {
	size       int64
	mod        time.Time
	summarizer string
	edited     bool
}

// UpgradeReport says what an Upgrader's Pass did.
type UpgradeReport struct {
	Filled      int       // vectors made for documents that waited for them
	VectorsLeft int       // documents still waiting
	Redone      int       // summaries rewritten by Ollama
	Failed      int       // summaries whose redo failed for another reason than an outage
	Left        int       // summaries still to upgrade
	Kept        int       // offline-made summaries a person edited: never upgraded
	RetryAt     time.Time // Ollama is unavailable until then; zero when it answered or was not asked
}

// Loop runs the passes until ctx ends, one every Every (sooner when
// Ollama said when to ask again). It returns nil when ctx ends.
func (u *Upgrader) Loop(ctx context.Context) error {
	log := u.log().With(logkey.System, "upgrade")
	for {
		start := time.Now()
		rep, err := u.Pass(ctx)
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
		wait := u.Every
		if wait <= 0 {
			wait = DefaultUpgradeEvery
		}
		if !rep.RetryAt.IsZero() {
			wait = min(wait, max(rep.RetryAt.Sub(u.now()), time.Second))
		}
		if sleep(ctx, wait) != nil {
			return nil
		}
	}
}

// Pass does the upgrade once: it embeds the documents of the open index
// that wait for a vector, then redoes with Ollama, one at a time and paced
// by Upgrade, the summaries the offline summarizer wrote (newest first),
// or, when there are none, those another model wrote. A summary a person
// edited is never rewritten. It stops early, without an error, when Ollama
// goes away; RetryAt then says when it is worth trying again.
func (u *Upgrader) Pass(ctx context.Context) (UpgradeReport, error) {
	var rep UpgradeReport
	if x := u.Vectors(); x != nil {
		st, err := x.FillVectors(ctx)
		rep.Filled, rep.VectorsLeft = st.Filled, st.Left
		switch {
		case ctx.Err() != nil:
			return rep, ctx.Err()
		case errors.Is(err, index.ErrUnavailable):
			rep.RetryAt = st.RetryAt
		case err != nil:
			u.log().Warn("filling in vectors", logkey.System, "upgrade", "err", err)
		}
	}
	f, ok := u.Summarizer().(*FallbackSummarizer)
	if !ok {
		return rep, nil // Ollama summaries are off: the config did not build them
	}
	offline, other, kept, err := u.upgradable(f.Primary())
	if err != nil {
		return rep, err
	}
	rep.Kept = kept
	items := offline
	if len(items) == 0 {
		items = other // only when no offline-made summary waits: those come first
	}
	rep.Left = len(offline) + len(other)
	u.setLeft(rep.Left)
	if len(items) == 0 {
		return rep, nil
	}
	if !f.Available() {
		rep.RetryAt = f.RetryAt()
		return rep, nil
	}
	c := *u.Consolidator()
	c.Summarizer = primaryOnly{f}
	res, err := Upgrade(ctx, items, func(ctx context.Context, it UpgradeItem) error {
		return u.redo(ctx, &c, f.Primary(), it)
	}, UpgradeOptions{Pause: u.Pause, Log: u.log()})
	rep.Redone, rep.Failed = res.Redone, res.Failed
	rep.Left -= res.Redone
	u.setLeft(rep.Left)
	var ue *UnavailableError
	switch {
	case ctx.Err() != nil:
		return rep, ctx.Err()
	case errors.As(err, &ue):
		rep.RetryAt = ue.RetryAfter
	case errors.Is(err, ErrUnavailable):
		rep.RetryAt = u.now().Add(DefaultCooldown)
	case err != nil:
		return rep, err
	}
	return rep, nil
}

func (u *Upgrader) log() *slog.Logger {
	if u.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return u.Log
}

func (u *Upgrader) now() time.Time {
	if u.Now == nil {
		return time.Now()
	}
	return u.Now()
}

func (u *Upgrader) setLeft(n int) {
	u.mu.Lock()
	u.left = n
	u.mu.Unlock()
}

// Left returns how many summaries waited for an upgrade at the last look.
func (u *Upgrader) Left() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.left
}

// upgradable lists the summaries daybook wrote with another summarizer than
// primary: offline-made ones and those of other models; kept counts the
// offline-made ones a person edited. Front matter is read again only for
// files whose size or time changed since the last look.
func (u *Upgrader) upgradable(primary string) (offline, other []UpgradeItem, kept int, err error) {
	files, err := consolidate.List(u.Dir, "", date.Range{})
	if err != nil {
		return nil, nil, 0, err
	}
	u.mu.Lock()
	old := u.seen
	u.mu.Unlock()
	seen := make(map[string]upgradeSeen, len(files))
	for _, f := range files {
		s, ok := old[f.Rel]
		if !ok || s.size != f.Size || !s.mod.Equal(f.ModTime) {
			sum, err := consolidate.ReadSummary(f.Path)
			if err != nil {
				u.log().Debug("not upgrading a summary that does not read", logkey.System, "upgrade", "path", f.Rel, "err", err)
				continue
			}
			s = upgradeSeen{size: f.Size, mod: f.ModTime, summarizer: sum.Summarizer, edited: sum.Edited()}
		}
		seen[f.Rel] = s
		switch {
		case s.summarizer == primary:
		case s.edited:
			if NeedsUpgrade(s.summarizer) {
				kept++
			}
		case NeedsUpgrade(s.summarizer):
			offline = append(offline, UpgradeItem{Level: f.Period.Level, Period: f.Period.String(), Model: s.summarizer})
		default:
			other = append(other, UpgradeItem{Level: f.Period.Level, Period: f.Period.String(), Model: s.summarizer})
		}
	}
	u.mu.Lock()
	u.seen = seen
	u.mu.Unlock()
	return offline, other, kept, nil
}

// primaryOnly is the summarizer of an upgrade: Ollama without the offline
// fallback, so that an outage stops the upgrade instead of writing another
// offline summary.
type primaryOnly struct{ f *FallbackSummarizer }

func (p primaryOnly) Name() string { return p.f.Primary() }

func (p primaryOnly) Summarize(ctx context.Context, in consolidate.Input) (string, error) {
	return p.f.SummarizePrimary(ctx, in)
}

// redo rewrites one summary with c, unless it changed since it was listed
// (a consolidation redid it, or a person edited it). Another consolidation
// running is waited for.
func (u *Upgrader) redo(ctx context.Context, c *consolidate.Consolidator, primary string, it UpgradeItem) error {
	p, err := consolidate.ParsePeriod(it.Level, it.Period)
	if err != nil {
		return err
	}
	s, err := consolidate.ReadSummary(p.Path(u.Dir))
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
			if err := sleep(ctx, upgradeBusyWait); err != nil {
				return err
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
