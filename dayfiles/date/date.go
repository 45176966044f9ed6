// Package date holds the civil dates and periods daybook files its memory under:
// a day (2026-11-22), a month (2026-11) and a year (2026), with no time of day and
// no time zone. Converting an instant to a Date is the caller's job, in the
// configured location, so that an entry belongs to the day of its local time.
package date

import (
	"fmt"
	"time"
)

// Date is a civil date. The zero Date is not valid.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// Of returns the civil date of t in t's location.
func Of(t time.Time) Date {
	y, m, d := t.Date()
	return Date{y, m, d}
}

// Parse parses a date written as YYYY-MM-DD and rejects impossible dates
// such as 2026-02-30.
func Parse(s string) (Date, error) {
	if d, ok := parseDate(s); ok {
		return d, nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return Date{}, fmt.Errorf("parsing date %q: want YYYY-MM-DD", s)
	}
	return Of(t), nil
}

// MustParse is Parse for tests and constants; it panics on a bad date.
func MustParse(s string) Date {
	d, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return d
}

// String formats d as YYYY-MM-DD.
func (d Date) String() string { return formatDate(d.Year, d.Month, d.Day) }

// IsZero reports whether d is the zero Date.
func (d Date) IsZero() bool { return d == Date{} }

// In returns midnight of d in loc.
func (d Date) In(loc *time.Location) time.Time {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, loc)
}

// At returns d at hh:mm in loc.
func (d Date) At(hh, mm int, loc *time.Location) time.Time {
	return time.Date(d.Year, d.Month, d.Day, hh, mm, 0, 0, loc)
}

// AddDays returns d moved by n days.
func (d Date) AddDays(n int) Date { return Of(d.In(time.UTC).AddDate(0, 0, n)) }

// AddMonths returns the same day k months after d (before it, for k < 0),
// or that month's last day when it is shorter: 2026-03-31 less a month is
// 2026-02-28.
func (d Date) AddMonths(k int) Date {
	m := d.MonthOf().Add(k)
	return Date{m.Year, m.Month, min(d.Day, m.Last().Day)}
}

// AddYears returns the same day k years after d, or 28 February for 29
// February in a year that has none.
func (d Date) AddYears(k int) Date { return d.AddMonths(12 * k) }

// Weekday returns the day of the week of d.
func (d Date) Weekday() time.Weekday { return d.In(time.UTC).Weekday() }

// Before reports whether d is before e.
func (d Date) Before(e Date) bool { return d.Compare(e) < 0 }

// After reports whether d is after e.
func (d Date) After(e Date) bool { return d.Compare(e) > 0 }

// Compare returns -1, 0 or +1 as d is before, equal to or after e.
func (d Date) Compare(e Date) int {
	switch {
	case d.Year != e.Year:
		return cmp(d.Year, e.Year)
	case d.Month != e.Month:
		return cmp(int(d.Month), int(e.Month))
	default:
		return cmp(d.Day, e.Day)
	}
}

// MonthOf returns the month d falls in.
func (d Date) MonthOf() Month { return Month{d.Year, d.Month} }

func cmp(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Month is a calendar month.
type Month struct {
	Year  int
	Month time.Month
}

// String formats m as YYYY-MM.
func (m Month) String() string { return formatMonth(m.Year, m.Month) }

// First returns the first day of m.
func (m Month) First() Date { return Date{m.Year, m.Month, 1} }

// Last returns the last day of m.
func (m Month) Last() Date { return Date{m.Year, m.Month + 1, 1}.normalize().AddDays(-1) }

// Range returns the days of m.
func (m Month) Range() Range { return Range{m.First(), m.Last()} }

// Next returns the month after m.
func (m Month) Next() Month { return Date{m.Year, m.Month + 1, 1}.normalize().MonthOf() }

// Add returns the month k months after m (before it, for k < 0).
func (m Month) Add(k int) Month {
	n := m.Year*12 + int(m.Month) - 1 + k
	y, i := n/12, n%12
	if i < 0 { // a month before year 0: floor, not truncation
		y, i = y-1, i+12
	}
	return Month{Year: y, Month: time.Month(i + 1)}
}

// ParseMonth parses YYYY-MM.
func ParseMonth(s string) (Month, error) {
	if m, ok := parseMonth(s); ok {
		return m, nil
	}
	t, err := time.Parse("2006-01", s)
	if err != nil {
		return Month{}, fmt.Errorf("parsing month %q: want YYYY-MM", s)
	}
	return Month{t.Year(), t.Month()}, nil
}

func (d Date) normalize() Date { return Of(time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC)) }

// Range is an inclusive range of days. A zero From or To leaves that side open.
type Range struct {
	From, To Date
}

// YearRange returns the days of year y.
func YearRange(y int) Range { return Range{Date{y, time.January, 1}, Date{y, time.December, 31}} }

// Contains reports whether d is inside r.
func (r Range) Contains(d Date) bool {
	if !r.From.IsZero() && d.Before(r.From) {
		return false
	}
	if !r.To.IsZero() && d.After(r.To) {
		return false
	}
	return true
}

// Overlaps reports whether r and s share at least one day.
func (r Range) Overlaps(s Range) bool {
	if !r.From.IsZero() && !s.To.IsZero() && s.To.Before(r.From) {
		return false
	}
	if !r.To.IsZero() && !s.From.IsZero() && s.From.After(r.To) {
		return false
	}
	return true
}

// Intersect returns the days r and s share; ok is false when they share none.
func (r Range) Intersect(s Range) (Range, bool) {
	out := r
	if out.From.IsZero() || (!s.From.IsZero() && s.From.After(out.From)) {
		out.From = s.From
	}
	if out.To.IsZero() || (!s.To.IsZero() && s.To.Before(out.To)) {
		out.To = s.To
	}
	if !out.From.IsZero() && !out.To.IsZero() && out.To.Before(out.From) {
		return Range{}, false
	}
	return out, true
}

// IsOpen reports whether r has no bound at all.
func (r Range) IsOpen() bool { return r.From.IsZero() && r.To.IsZero() }

// String formats r as FROM..TO with open sides left empty.
func (r Range) String() string {
	f, t := "", ""
	if !r.From.IsZero() {
		f = r.From.String()
	}
	if !r.To.IsZero() {
		t = r.To.String()
	}
	return f + ".." + t
}
