package index

import (
	"strconv"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/daybook/daybook/dayfiles/date"
)

// A document's start and end are always the days of its period (a year, a
// month or a day), so "overlaps the range" is "its period is one of the
// periods the range touches". rangeFilter says that with the year, month and
// day keywords: the range is cut into its whole years, the whole months at
// its ends and the days left over, each part a term range over one field.
// A term range enumerates only the terms the index holds, so a range costs
// a handful of terms (the years of the index, at most 22 months, at most 60
// days) where a term range over YYYY-MM-DD start and end dates costs one term
// per indexed day in range, up to every day of the index for an open side.

// rangeFilter returns the query for level's documents that overlap r, nil
// when r is open.
func rangeFilter(level date.Level, r date.Range) query.Query {
	if r.IsOpen() {
		return nil
	}
	var parts []query.Query
	add := func(field, lo, hi string) {
		if lo != "" && hi != "" && hi < lo {
			return
		}
		yes := true
		q := bleve.NewTermRangeInclusiveQuery(lo, hi, &yes, &yes)
		q.SetField(field)
		parts = append(parts, q)
	}
	switch level {
	case date.LevelYear:
		add("year", yearOf(r.From), yearOf(r.To))
	case date.LevelMonth:
		monthParts(add, monthOf(r.From), monthOf(r.To))
	default: // day, entry
		dayParts(add, r.From, r.To)
	}
	switch len(parts) {
	case 0:
		return bleve.NewMatchNoneQuery()
	case 1:
		return parts[0]
	}
	return bleve.NewDisjunctionQuery(parts...)
}

// dayParts cuts the days lo..hi (zero: open) into days at the ends and the
// whole months between them.
func dayParts(add func(field, lo, hi string), lo, hi date.Date) {
	var mLo, mHi date.Month // the first and last whole months; zero: open
	if !lo.IsZero() {
		mLo = lo.MonthOf()
		if lo.Day != 1 {
			mLo = mLo.Next()
		}
	}
	if !hi.IsZero() {
		mHi = hi.MonthOf()
		if hi != mHi.Last() {
			mHi = prevMonth(mHi)
		}
	}
	if !lo.IsZero() && !hi.IsZero() && monthLess(mHi, mLo) {
		add("day", lo.String(), hi.String()) // no whole month in between
		return
	}
	if !lo.IsZero() && lo.Day != 1 {
		add("day", lo.String(), mLo.First().AddDays(-1).String())
	}
	if !hi.IsZero() && hi != hi.MonthOf().Last() {
		add("day", mHi.Last().AddDays(1).String(), hi.String())
	}
	monthParts(add, mLo, mHi)
}

// monthParts cuts the months lo..hi (zero: open) into months at the ends and
// the whole years between them.
func monthParts(add func(field, lo, hi string), lo, hi date.Month) {
	var yLo, yHi int // the first and last whole years; 0: open
	if lo != (date.Month{}) {
		yLo = lo.Year
		if lo.Month != time.January {
			yLo++
		}
	}
	if hi != (date.Month{}) {
		yHi = hi.Year
		if hi.Month != time.December {
			yHi--
		}
	}
	if yLo != 0 && yHi != 0 && yHi < yLo {
		add("month", lo.String(), hi.String()) // no whole year in between
		return
	}
	if yLo != 0 && lo.Month != time.January {
		add("month", lo.String(), yearString(yLo-1)+"-12")
	}
	if yHi != 0 && hi.Month != time.December {
		add("month", yearString(yHi+1)+"-01", hi.String())
	}
	add("year", yearString(yLo), yearString(yHi))
}

func prevMonth(m date.Month) date.Month { return m.First().AddDays(-1).MonthOf() }

func monthLess(a, b date.Month) bool {
	return a.Year < b.Year || a.Year == b.Year && a.Month < b.Month
}

func monthOf(d date.Date) date.Month {
	if d.IsZero() {
		return date.Month{}
	}
	return d.MonthOf()
}

func yearOf(d date.Date) string {
	if d.IsZero() {
		return ""
	}
	return yearString(d.Year)
}

// yearString formats a year as the index keeps it, "" for 0 (open).
func yearString(y int) string {
	if y == 0 {
		return ""
	}
	s := strconv.Itoa(y)
	for len(s) < 4 {
		s = "0" + s
	}
	return s
}

// covers reports whether every one of parents lies inside r: their children
// then need no range filter, the parent terms restrict them already.
func covers(r date.Range, parents []string) bool {
	if len(parents) == 0 {
		return false
	}
	for _, p := range parents {
		pr, ok := periodRange(p)
		if !ok || !r.Contains(pr.From) || !r.Contains(pr.To) {
			return false
		}
	}
	return true
}
