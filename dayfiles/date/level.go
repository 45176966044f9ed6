package date

import "fmt"

// Level is a level of daybook's pyramid: the periods a summary covers (a
// year, a month, a day), then the entries of a day and the lines of a day
// file. Consolidation, the index, recall and the CLI share this one type;
// every switch on a Level names each level and treats any other as a bug.
type Level string

// The levels, top down.
const (
	LevelYear  Level = "year"
	LevelMonth Level = "month"
	LevelDay   Level = "day"
	LevelEntry Level = "entry"
	LevelLine  Level = "line" // a line of a day file, reported by recall's linear scan and by expand
)

// Up returns the level that holds l's items: a day's month, an entry's day.
// A year has none, nor does "" (every level): Up returns "".
func (l Level) Up() Level {
	switch l {
	case "", LevelYear:
		return ""
	case LevelMonth:
		return LevelYear
	case LevelDay:
		return LevelMonth
	case LevelEntry, LevelLine:
		return LevelDay
	default:
		panic(fmt.Sprintf("date: unknown level %q", string(l)))
	}
}

// PeriodLen returns the length of a period of l as it is written: 4 for
// 2026, 7 for 2026-11, 10 for 2026-11-22. Entries and lines have no period
// of their own, nor has "" (every level): 0.
func (l Level) PeriodLen() int {
	switch l {
	case LevelYear:
		return 4
	case LevelMonth:
		return 7
	case LevelDay:
		return 10
	case "", LevelEntry, LevelLine:
		return 0
	default:
		panic(fmt.Sprintf("date: unknown level %q", string(l)))
	}
}

// MaxPerParent returns the most periods of l that one period of l.Up()
// holds: 12 months in a year, 31 days in a month; 0 for the other levels.
func (l Level) MaxPerParent() int {
	switch l {
	case LevelMonth:
		return 12
	case LevelDay:
		return 31
	case "", LevelYear, LevelEntry, LevelLine:
		return 0
	default:
		panic(fmt.Sprintf("date: unknown level %q", string(l)))
	}
}
