package mcp

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// ArgError is a tool argument that is wrong, named with its value. The
// backend checks everything again; these checks only put the argument's
// name in front, in the words a tool's caller knows.
type ArgError struct {
	Arg string // the argument's JSON name
	Err error
}

func (e *ArgError) Error() string { return e.Arg + ": " + e.Err.Error() }
func (e *ArgError) Unwrap() error { return e.Err }

func argErrorf(arg, format string, args ...any) error {
	return &ArgError{Arg: arg, Err: fmt.Errorf(format, args...)}
}

func isArgError(err error) bool {
	var a *ArgError
	return errors.As(err, &a)
}

func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// checkText refuses an empty or blank value and one over max bytes (0: no
// limit here).
func checkText(arg, s string, max int) error {
	if strings.TrimSpace(s) == "" {
		return argErrorf(arg, "is empty")
	}
	return checkLen(arg, s, max)
}

func checkLen(arg, s string, max int) error {
	switch {
	case max > 0 && len(s) > max:
		return argErrorf(arg, "is %d bytes, over the limit of %d", len(s), max)
	case !utf8.ValidString(s):
		return argErrorf(arg, "is not UTF-8")
	}
	return nil
}

// checkRange checks the from and to dates each alone; their order depends
// on today, which the backend knows.
func checkRange(from, to string) error {
	// Any day will do as today: the form, and the order of two dates
	// relative to the same today, do not depend on it.
	today := date.Date{Year: 2000, Month: time.January, Day: 1}
	var days [2]date.Date
	for i, a := range []struct{ name, v string }{{"from", from}, {"to", to}} {
		if a.v == "" {
			continue
		}
		d, err := date.ParseArg(a.v, today)
		if err != nil {
			return &ArgError{Arg: a.name, Err: err}
		}
		days[i] = d
	}
	if from != "" && to != "" && days[1].Before(days[0]) {
		return argErrorf("from", "%q is after to %q", from, to)
	}
	return nil
}

func checkOneOf(arg, v string, allowed ...string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	if v == "" {
		return argErrorf(arg, "is empty: want %s", wantList(allowed))
	}
	return argErrorf(arg, "%q is not one of the values: want %s", v, wantList(allowed))
}

func wantList(allowed []string) string {
	var named []string
	for _, a := range allowed {
		if a != "" {
			named = append(named, a)
		}
	}
	if len(named) < 2 {
		return strings.Join(named, "")
	}
	return strings.Join(named[:len(named)-1], ", ") + " or " + named[len(named)-1]
}

// The largest limits and budgets the tools take; 0 is the default.
const (
	maxRecallLimit   = 1000
	maxFindLimit     = 10000
	maxBrowseLimit   = 1000
	maxContextBudget = 1 << 20
	maxExpandBudget  = 32000
	maxBrowseBudget  = 32000
	maxFromLine      = 1 << 30
)

// checkLimit checks a limit: 0 (the default) or 1 to max.
func checkLimit(n, max int) error { return checkRangeInt("limit", n, 1, max) }

// checkRangeInt checks an optional number: 0 (the default) or min to max,
// in the one shape every argument error has.
func checkRangeInt(arg string, n, min, max int) error {
	if n != 0 && (n < min || n > max) {
		return argErrorf(arg, "%d is out of range: want %d to %d, or 0 for the default", n, min, max)
	}
	return nil
}

func checkRegex(pattern string) error {
	if _, err := dayfiles.NewMatcher(pattern, true); err != nil {
		return &ArgError{Arg: "pattern", Err: err}
	}
	return nil
}

func checkKind(kind string) error {
	if _, err := dayfiles.ParseKind(kind); err != nil {
		return &ArgError{Arg: "kind", Err: err}
	}
	return nil
}

func checkTags(tags []string) error {
	for i, t := range tags {
		name := strings.TrimPrefix(t, "#")
		if strings.TrimSpace(name) == "" {
			return argErrorf("tags", "tag %d is empty", i+1)
		}
		// The rule the day-file parser reads tags by.
		if got := dayfiles.Tags("#" + name); len(got) != 1 || got[0] != strings.ToLower(name) {
			return argErrorf("tags", "%q is not a tag: a tag is a letter followed by letters, digits, '-', '_' or '/'", t)
		}
	}
	return nil
}

func checkAt(at string) error {
	if at == "" {
		return nil
	}
	if _, err := date.ParseTime(at, time.Now(), time.UTC); err != nil {
		return &ArgError{Arg: "at", Err: err}
	}
	return nil
}
