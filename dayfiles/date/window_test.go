package date

import (
	"errors"
	"strings"
	"testing"
)

func TestDefaultWindowRefusesFarDates(t *testing.T) {
	today := MustParse("2026-11-24")
	w := DefaultWindow()
	for _, s := range []string{"9999-12-31", "0001-01-01", "1899-12-31", "2026-11-27", "2999-01-01"} {
		err := w.Check(MustParse(s), today)
		if !errors.Is(err, ErrOutsideWindow) || !strings.Contains(err.Error(), s) {
			t.Errorf("Check(%s) = %v, want ErrOutsideWindow naming the date", s, err)
		}
	}
	for _, s := range []string{"1900-01-01", "1975-06-01", "2026-11-24", "2026-11-26"} {
		if err := w.Check(MustParse(s), today); err != nil {
			t.Errorf("Check(%s) = %v, want nil", s, err)
		}
	}
}

func TestAnyDateTakesOldJournals(t *testing.T) {
	today := MustParse("2026-11-24")
	for _, s := range []string{"0001-01-01", "1850-03-02", "9999-12-31"} {
		if err := AnyDate().Check(MustParse(s), today); err != nil {
			t.Errorf("AnyDate().Check(%s) = %v", s, err)
		}
	}
	if err := AnyDate().Check(Date{Year: 10000, Month: 1, Day: 1}, today); !errors.Is(err, ErrOutsideWindow) {
		t.Errorf("year 10000 = %v, want refused: no day file can hold it", err)
	}
}

func TestWindowValidateNamesTheKey(t *testing.T) {
	if err := (Window{Earliest: DefaultEarliest, Ahead: -1}).Validate(); err == nil || !strings.Contains(err.Error(), "dates.ahead_days") {
		t.Errorf("Validate(ahead -1) = %v", err)
	}
	if err := (Window{}).Validate(); err == nil || !strings.Contains(err.Error(), "dates.earliest") {
		t.Errorf("Validate(zero) = %v", err)
	}
	if err := DefaultWindow().Validate(); err != nil {
		t.Errorf("default: %v", err)
	}
}
