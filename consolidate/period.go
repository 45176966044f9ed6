package consolidate

import (
	"fmt"
	"path/filepath"
	"strconv"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
)

// SummariesDir is the folder under the data dir that holds the summaries.
const SummariesDir = "summaries"

// Period is one node of the pyramid: a day, a month or a year.
type Period struct {
	Level date.Level
	Year  int
	Month time.Month // 0 for a year
	Day   int        // 0 for a month or a year
}

// DayPeriod returns the period of day d.
func DayPeriod(d date.Date) Period { return Period{date.LevelDay, d.Year, d.Month, d.Day} }

// MonthPeriod returns the period of month m.
func MonthPeriod(m date.Month) Period { return Period{date.LevelMonth, m.Year, m.Month, 0} }

// YearPeriod returns the period of year y.
func YearPeriod(y int) Period { return Period{Level: date.LevelYear, Year: y} }

// ParsePeriod parses a period of the given level: 2026-11-22, 2026-11 or 2026.
func ParsePeriod(level date.Level, s string) (Period, error) {
	switch level {
	case date.LevelDay:
		d, err := date.Parse(s)
		if err != nil {
			return Period{}, err
		}
		return DayPeriod(d), nil
	case date.LevelMonth:
		m, err := date.ParseMonth(s)
		if err != nil {
			return Period{}, err
		}
		return MonthPeriod(m), nil
	case date.LevelYear:
		y, err := strconv.Atoi(s)
		if err != nil || len(s) != 4 || y < 1 {
			return Period{}, fmt.Errorf("parsing year %q: want YYYY", s)
		}
		return YearPeriod(y), nil
	default:
		return Period{}, fmt.Errorf("unknown level %q: want day, month or year", level)
	}
}

// ParseLevel parses a level name; "" is all levels.
func ParseLevel(s string) (date.Level, error) {
	switch l := date.Level(s); l {
	case "", date.LevelDay, date.LevelMonth, date.LevelYear:
		return l, nil
	default:
		return "", fmt.Errorf("unknown level %q: want day, month or year", s)
	}
}

// String formats p as 2026-11-22, 2026-11 or 2026.
func (p Period) String() string {
	switch p.Level {
	case date.LevelDay:
		return p.Date().String()
	case date.LevelMonth:
		return p.MonthOf().String()
	default:
		return fmt.Sprintf("%04d", p.Year)
	}
}

// ID returns the id recall and the index know the summary by: day:2026-11-22,
// month:2026-11, year:2026.
func (p Period) ID() string { return string(p.Level) + ":" + p.String() }

// Date returns the day of a day period.
func (p Period) Date() date.Date { return date.Date{Year: p.Year, Month: p.Month, Day: p.Day} }

// MonthOf returns the month of a day or month period.
func (p Period) MonthOf() date.Month { return date.Month{Year: p.Year, Month: p.Month} }

// Parent returns the period one level up; a year is its own parent.
func (p Period) Parent() Period {
	switch p.Level {
	case date.LevelDay:
		return MonthPeriod(p.MonthOf())
	default:
		return YearPeriod(p.Year)
	}
}

// Range returns the days p covers.
func (p Period) Range() date.Range {
	switch p.Level {
	case date.LevelDay:
		return date.Range{From: p.Date(), To: p.Date()}
	case date.LevelMonth:
		return p.MonthOf().Range()
	default:
		return date.YearRange(p.Year)
	}
}

// Closed reports whether p is over on day today: a day before today, a month
// before this month, a year before this year. Only closed periods are
// consolidated, since an open one would be rewritten with every new entry.
func (p Period) Closed(today date.Date) bool {
	switch p.Level {
	case date.LevelDay:
		return p.Date().Before(today)
	case date.LevelMonth:
		return p.Year < today.Year || (p.Year == today.Year && p.Month < today.Month)
	default:
		return p.Year < today.Year
	}
}

// Rel returns the summary's path relative to the data dir, with forward
// slashes: summaries/2026/11/22.md, summaries/2026/11.md, summaries/2026.md.
func (p Period) Rel() string {
	switch p.Level {
	case date.LevelDay:
		return fmt.Sprintf("%s/%04d/%02d/%02d.md", SummariesDir, p.Year, int(p.Month), p.Day)
	case date.LevelMonth:
		return fmt.Sprintf("%s/%04d/%02d.md", SummariesDir, p.Year, int(p.Month))
	default:
		return fmt.Sprintf("%s/%04d.md", SummariesDir, p.Year)
	}
}

// Path returns the summary's path under the data dir root.
func (p Period) Path(root string) string { return filepath.Join(root, filepath.FromSlash(p.Rel())) }

// toRoot is the relative path from the summary's folder up to the data dir.
func (p Period) toRoot() string {
	switch p.Level {
	case date.LevelDay:
		return "../../../"
	case date.LevelMonth:
		return "../../"
	default:
		return "../"
	}
}

// Title returns the heading of p's summary: "2026-11-22 Sunday", "2026-11", "2026".
func (p Period) Title() string {
	if p.Level == date.LevelDay {
		return p.String() + " " + p.Date().Weekday().String()
	}
	return p.String()
}

// comparePeriods orders periods by level (day, month, year), then by time.
func comparePeriods(a, b Period) int {
	if a.Level != b.Level {
		return levelRank(a.Level) - levelRank(b.Level)
	}
	return a.Range().From.Compare(b.Range().From)
}

func levelRank(l date.Level) int {
	switch l {
	case date.LevelDay:
		return 0
	case date.LevelMonth:
		return 1
	default:
		return 2
	}
}
