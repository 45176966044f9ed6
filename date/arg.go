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
		if len(v) >= 3 && v[0] == '-' && (v[len(v)-1] == 'd' || v[len(v)-1] == 'w') {
			n, err := strconv.Atoi(v[1 : len(v)-1])
			if err == nil && n >= 0 && n <= 100000 {
				if v[len(v)-1] == 'w' {
					n *= 7
				}
				return today.AddDays(-n), nil
			}
		}
		d, err := Parse(v)
		if err != nil {
			return Date{}, fmt.Errorf("bad date %q: want %s", s, ArgForms)
		}
		return d, nil
	}
}

// ParseRangeArgs parses optional --from and --to values into a Range.
func ParseRangeArgs(from, to string, today Date) (Range, error) {
	var r Range
	var err error
	if from != "" {
		if r.From, err = ParseArg(from, today); err != nil {
			return Range{}, fmt.Errorf("--from: %w", err)
		}
	}
	if to != "" {
		if r.To, err = ParseArg(to, today); err != nil {
			return Range{}, fmt.Errorf("--to: %w", err)
		}
	}
	if !r.From.IsZero() && !r.To.IsZero() && r.To.Before(r.From) {
		return Range{}, fmt.Errorf("--from %s is after --to %s", r.From, r.To)
	}
	return r, nil
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
