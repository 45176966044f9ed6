package date

import (
	"strings"
	"testing"
)

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
		if got, err := ParseLevel(string(tc.l)); got != tc.l || err != nil {
			t.Errorf("ParseLevel(%q) = %q, %v", tc.l, got, err)
		}
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
	if _, err := ParseLevel("week"); err == nil || !strings.Contains(err.Error(), `"week"`) {
		t.Errorf("ParseLevel(week) = %v, want an error naming it", err)
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
