package date

import (
	"fmt"
	"testing"
	"time"
)

// TestFastFormats checks the fast paths against fmt and time.Parse: every
// day and month of 1899-2101 formatted and parsed back, and strings near
// the format that must fail or pass as time.Parse says.
func TestFastFormats(t *testing.T) {
	for d := time.Date(1899, 1, 1, 0, 0, 0, 0, time.UTC); d.Year() < 2102; d = d.AddDate(0, 0, 1) {
		x := Of(d)
		want := fmt.Sprintf("%04d-%02d-%02d", d.Year(), int(d.Month()), d.Day())
		if got := x.String(); got != want {
			t.Fatalf("String of %v = %q, want %q", d, got, want)
		}
		if p, err := Parse(want); err != nil || p != x {
			t.Fatalf("Parse(%q) = %v, %v", want, p, err)
		}
		if d.Day() == 1 {
			m := x.MonthOf()
			wantM := fmt.Sprintf("%04d-%02d", d.Year(), int(d.Month()))
			if got := m.String(); got != wantM {
				t.Fatalf("Month.String = %q, want %q", got, wantM)
			}
			if p, err := ParseMonth(wantM); err != nil || p != m {
				t.Fatalf("ParseMonth(%q) = %v, %v", wantM, p, err)
			}
		}
	}
	// Outside 4 digits the format falls back to fmt.
	for _, x := range []Date{{-1, 1, 1}, {12345, 2, 3}, {0, 1, 1}} {
		if got, want := x.String(), fmt.Sprintf("%04d-%02d-%02d", x.Year, int(x.Month), x.Day); got != want {
			t.Errorf("String(%v) = %q, want %q", x, got, want)
		}
	}
	for _, s := range []string{
		"2024-02-29", "2023-02-29", "2100-02-29", "2000-02-29", "2024-04-31", "2024-00-10", "2024-13-01",
		"2024-01-00", "2024-1-01", "2024-01-1", "24-01-01", " 2024-01-01", "2024-01-01 ", "2024/01/01",
		"2024-0a-01", "+024-01-01", "2024-01-+1", "", "2024-01", "2024-01-011", "0000-01-01", "9999-12-31",
	} {
		_, terr := time.Parse(time.DateOnly, s)
		_, err := Parse(s)
		if (terr == nil) != (err == nil) {
			t.Errorf("Parse(%q): err %v, time.Parse says %v", s, err, terr)
		}
	}
	for _, s := range []string{"2024-02", "2024-00", "2024-13", "2024-1", "24-01", "2024-01-01", "2024/01", "0000-01", "2024-+1", ""} {
		_, terr := time.Parse("2006-01", s)
		_, err := ParseMonth(s)
		if (terr == nil) != (err == nil) {
			t.Errorf("ParseMonth(%q): err %v, time.Parse says %v", s, err, terr)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"2024-02-29", "2023-02-29", "1999-12-31", "2024-1-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, terr := time.Parse(time.DateOnly, s)
		got, err := Parse(s)
		if (terr == nil) != (err == nil) || err == nil && got != Of(want) {
			t.Errorf("Parse(%q) = %v, %v; time.Parse = %v, %v", s, got, err, want, terr)
		}
	})
}
