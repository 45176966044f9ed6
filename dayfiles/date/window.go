package date

import (
	"errors"
	"fmt"
	"time"
)

// Window is the span of dates daybook takes new entries for: from Earliest to
// Ahead days past today. It keeps one mistyped or hostile date (9999-12-31,
// 0001-01-01) from poisoning every view of the timeline.
type Window struct {
	Earliest Date // the first day accepted
	Ahead    int  // days past today still accepted (a clock or a time zone ahead)
}

// DefaultEarliest is the first day the default window takes.
var DefaultEarliest = Date{1900, time.January, 1}

// DefaultAhead is how many days past today the default window takes.
const DefaultAhead = 2

// DefaultWindow returns the window used when the config names none:
// 1900-01-01 to two days past today.
func DefaultWindow() Window { return Window{Earliest: DefaultEarliest, Ahead: DefaultAhead} }

// AnyDate is the explicit override for imports of old journals: every day a
// day file can be named for (years 0001 to 9999). Use it only when the user
// asked for it, never as a default.
func AnyDate() Window { return Window{Earliest: Date{1, time.January, 1}, Ahead: -1} }

// ErrOutsideWindow is wrapped by every error Check returns.
var ErrOutsideWindow = errors.New("date outside the accepted window")

// Check returns nil when d falls inside w on the day today, and otherwise an
// error naming d and the window, wrapping ErrOutsideWindow. A negative Ahead
// leaves the window open to the last day a day file can hold (9999-12-31).
func (w Window) Check(d, today Date) error {
	last := Date{9999, time.December, 31}
	if w.Ahead >= 0 {
		last = today.AddDays(w.Ahead)
	}
	if d.Year < 1 || d.Year > 9999 {
		return fmt.Errorf("%w: year %d cannot be stored (day files are named YYYY)", ErrOutsideWindow, d.Year)
	}
	if d.Before(w.Earliest) || d.After(last) {
		return fmt.Errorf("%w: %s is outside %s to %s (set dates.earliest and dates.ahead_days in the config to change it)",
			ErrOutsideWindow, d, w.Earliest, last)
	}
	return nil
}

// Validate checks w itself, naming the config keys.
func (w Window) Validate() error {
	if w.Earliest.Year < 1 || w.Earliest.Year > 9999 {
		return fmt.Errorf("dates.earliest: %s is not a day from 0001-01-01 to 9999-12-31", w.Earliest)
	}
	if w.Ahead < 0 || w.Ahead > 366 {
		return fmt.Errorf("dates.ahead_days: %d must be 0..366", w.Ahead)
	}
	return nil
}
