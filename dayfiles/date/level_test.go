package date

import "testing"

func TestLevels(t *testing.T) {
	for _, tc := range []struct {
		l         Level
		up        Level
		periodLen int
		perParent int
	}{
		{"", "", 0, 0}, // every level
		{LevelYear, "", 4, 0},
		{LevelMonth, LevelYear, 7, 12},
		{LevelDay, LevelMonth, 10, 31},
		{LevelEntry, LevelDay, 0, 0},
		{LevelLine, LevelDay, 0, 0},
	} {
		if got := tc.l.Up(); got != tc.up {
			t.Errorf("%s.Up() = %q, want %q", tc.l, got, tc.up)
		}
		if got := tc.l.PeriodLen(); got != tc.periodLen {
			t.Errorf("%s.PeriodLen() = %d, want %d", tc.l, got, tc.periodLen)
		}
		if got := tc.l.MaxPerParent(); got != tc.perParent {
			t.Errorf("%s.MaxPerParent() = %d, want %d", tc.l, got, tc.perParent)
		}
	}
}

// An unknown level is a bug, not a zero: a map lookup answered 0 for it,
// which the drill took for "keep nothing".
func TestUnknownLevelPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("PeriodLen of an unknown level did not panic")
		}
	}()
	Level("week").PeriodLen()
}
