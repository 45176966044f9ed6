package date

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ArgForms lists every form ParseArg takes, for help texts and errors.
const ArgForms = "YYYY-MM-DD, today, yesterday, tomorrow, -Nd (N days ago) or -Nw (N weeks ago)"

// ParseArg parses a date as a user types it on the command line: 2026-11-22,
// today, yesterday, tomorrow, or -3d / -2w (days or weeks before today).
func ParseArg(s string, today Date) (Date, error) {
	switch v := strings.ToLower(strings.TrimSpace(s)); v {
	case "today":
		return today, nil
	case "yesterday":
		return today.AddDays(-1), nil
	case "tomorrow":
		return today.AddDays(1), nil
	default:
		if n, ok := relative(v); ok && n >= 0 {
			return today.AddDays(-n), nil
		}
		d, err := Parse(v)
		if err != nil {
			return Date{}, fmt.Errorf("bad date %q: want %s", s, ArgForms)
		}
		return d, nil
	}
}

// IsRelative reports whether s is written as a relative date, -3d or -2w,
// which a command line must take for an argument rather than a flag.
func IsRelative(s string) bool {
	_, ok := relative(s)
	return ok
}

// relative parses -Nd and -Nw (N up to 100000) into a number of days; ok
// says s has the form, and days is -1 when N is out of range.
func relative(v string) (days int, ok bool) {
	if len(v) < 3 || v[0] != '-' || (v[len(v)-1] != 'd' && v[len(v)-1] != 'w') {
		return 0, false
	}
	digits := v[1 : len(v)-1]
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n > 100000 {
		return -1, true
	}
	if v[len(v)-1] == 'w' {
		n *= 7
	}
	return n, true
}

// ParseRangeArgs parses optional from and to values, each as ParseArg
// takes it, into a Range. Its errors are *RangeError, which name the fields
// "from" and "to"; a caller that calls them otherwise (a CLI's --from and
// --to) says so with RangeError.Named.
func ParseRangeArgs(from, to string, today Date) (Range, error) {
	var r Range
	var err error
	if from != "" {
		if r.From, err = ParseArg(from, today); err != nil {
			return Range{}, &RangeError{Field: "from", Err: err}
		}
	}
	if to != "" {
		if r.To, err = ParseArg(to, today); err != nil {
			return Range{}, &RangeError{Field: "to", Err: err}
		}
	}
	if !r.From.IsZero() && !r.To.IsZero() && r.To.Before(r.From) {
		return Range{}, &RangeError{From: r.From, To: r.To}
	}
	return r, nil
}

// RangeError is a bad from/to pair: the value of Field ("from" or "to") is
// not a date, or, with Field empty, From is after To.
type RangeError struct {
	Field    string
	Err      error
	From, To Date
}

func (e *RangeError) Error() string { return e.Named("from", "to") }

func (e *RangeError) Unwrap() error { return e.Err }

// Named says what Error says, with from and to as the names of the fields.
func (e *RangeError) Named(from, to string) string {
	switch e.Field {
	case "from":
		return from + ": " + e.Err.Error()
	case "to":
		return to + ": " + e.Err.Error()
	default:
		return fmt.Sprintf("%s %s is after %s %s", from, e.From, to, e.To)
	}
}

// ParseTime parses the time of an entry: HH:MM (on today), "YYYY-MM-DD HH:MM",
// YYYY-MM-DDTHH:MM[:SS] (local to loc), or RFC 3339 with an offset.
func ParseTime(s string, now time.Time, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02 15:04"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, nil
		}
	}
	if t, err := time.ParseInLocation("15:04", s, loc); err == nil {
		return Of(now.In(loc)).At(t.Hour(), t.Minute(), loc), nil
	}
	return time.Time{}, fmt.Errorf("bad time %q: want HH:MM, YYYY-MM-DD HH:MM, or RFC 3339", s)
}

// CheckWall returns an error when at, a local time as ParseTime takes it
// (not RFC 3339), names a wall-clock time that does not exist in loc,
// where t is what ParseTime made of it: the hour skipped when daylight
// saving time begins. Go would move it silently.
func CheckWall(at string, t time.Time, loc *time.Location) error {
	at = strings.TrimSpace(at)
	if _, err := time.Parse(time.RFC3339, at); err == nil {
		return nil
	}
	var wall time.Time
	ok := false
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02 15:04", "15:04"} {
		if w, err := time.Parse(layout, at); err == nil {
			wall, ok = w, true
			break
		}
	}
	in := t.In(loc)
	if !ok || (in.Hour() == wall.Hour() && in.Minute() == wall.Minute()) {
		return nil
	}
	// Find the jump: the offset changes between three hours before and after.
	lo, hi := t.Add(-3*time.Hour), t.Add(3*time.Hour)
	_, off := lo.In(loc).Zone()
	for hi.Sub(lo) > time.Minute {
		mid := lo.Add(hi.Sub(lo) / 2)
		if _, o := mid.In(loc).Zone(); o == off {
			lo = mid
		} else {
			hi = mid
		}
	}
	_, after := hi.In(loc).Zone()
	from := hi.In(time.FixedZone("", off))
	to := from.Add(time.Duration(after-off) * time.Second)
	return fmt.Errorf("%s does not exist in %s: the clocks jump from %s to %s on %s (daylight saving time); give a time outside the gap, or an RFC 3339 time with its offset",
		at, loc, from.Format("15:04"), to.Format("15:04"), from.Format("2006-01-02"))
}
