package date

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseRejectsImpossibleDates(t *testing.T) {
	for _, s := range []string{"2026-02-30", "2026-13-01", "2026-1-1", "22-11-2026", "", "2026-11-22x"} {
		if _, err := Parse(s); err == nil || !strings.Contains(err.Error(), s) {
			t.Errorf("Parse(%q) err = %v, want an error naming it", s, err)
		}
	}
	if d := MustParse("2024-02-29"); d != (Date{2024, time.February, 29}) {
		t.Errorf("leap day = %v", d)
	}
}

func TestAddDaysAcrossBoundaries(t *testing.T) {
	for _, c := range []struct {
		from string
		n    int
		want string
	}{
		{"2026-12-31", 1, "2027-01-01"},
		{"2024-03-01", -1, "2024-02-29"},
		{"2023-03-01", -1, "2023-02-28"},
		{"2026-11-22", -365, "2025-11-22"},
	} {
		if got := MustParse(c.from).AddDays(c.n).String(); got != c.want {
			t.Errorf("%s + %d = %s, want %s", c.from, c.n, got, c.want)
		}
	}
}

func TestMonthLastAndNext(t *testing.T) {
	for _, c := range []struct{ m, last, next string }{
		{"2024-02", "2024-02-29", "2024-03"},
		{"2026-12", "2026-12-31", "2027-01"},
		{"2026-04", "2026-04-30", "2026-05"},
	} {
		m, err := ParseMonth(c.m)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Last().String(); got != c.last {
			t.Errorf("%s.Last() = %s, want %s", c.m, got, c.last)
		}
		if got := m.Next().String(); got != c.next {
			t.Errorf("%s.Next() = %s, want %s", c.m, got, c.next)
		}
	}
}

func TestRange(t *testing.T) {
	r := Range{MustParse("2026-03-01"), MustParse("2026-03-31")}
	if !r.Contains(MustParse("2026-03-01")) || !r.Contains(MustParse("2026-03-31")) || r.Contains(MustParse("2026-04-01")) {
		t.Error("Contains is not inclusive of both ends only")
	}
	open := Range{From: MustParse("2026-03-15")}
	if !open.Contains(MustParse("2099-01-01")) || open.Contains(MustParse("2026-03-14")) {
		t.Error("an open To should contain every later day")
	}
	if !r.Overlaps(YearRange(2026)) || r.Overlaps(YearRange(2025)) {
		t.Error("Overlaps with years is wrong")
	}
	got, ok := r.Intersect(Range{From: MustParse("2026-03-20")})
	if !ok || got.String() != "2026-03-20..2026-03-31" {
		t.Errorf("Intersect = %v %v", got, ok)
	}
	if _, ok := r.Intersect(YearRange(2027)); ok {
		t.Error("disjoint ranges intersect")
	}
}

func TestParseArg(t *testing.T) {
	today := MustParse("2026-03-01")
	for in, want := range map[string]string{
		"today": "2026-03-01", "Yesterday": "2026-02-28", "tomorrow": "2026-03-02",
		"-3d": "2026-02-26", "-1w": "2026-02-22", "2025-12-24": "2025-12-24", " -0d ": "2026-03-01",
	} {
		got, err := ParseArg(in, today)
		if err != nil || got.String() != want {
			t.Errorf("ParseArg(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"-3", "3d", "-xd", "last tuesday", "2026-02-30", "-99999999d"} {
		if _, err := ParseArg(bad, today); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("ParseArg(%q) err = %v, want an error naming it", bad, err)
		}
	}
}

func TestParseRangeArgs(t *testing.T) {
	today := MustParse("2026-11-22")
	// The errors name the request's fields, not a CLI's flags: they reach
	// socket and MCP clients too.
	_, err := ParseRangeArgs("2026-11-23", "2026-11-22", today)
	var re *RangeError
	if err == nil || err.Error() != "from 2026-11-23 is after to 2026-11-22" || !errors.As(err, &re) ||
		re.Named("--from", "--to") != "--from 2026-11-23 is after --to 2026-11-22" {
		t.Errorf("from after to: err = %v", err)
	}
	_, err = ParseRangeArgs("2026-11-01", "bad", today)
	if err == nil || !strings.HasPrefix(err.Error(), "to: bad date \"bad\"") || !errors.As(err, &re) ||
		!strings.HasPrefix(re.Named("--from", "--to"), "--to: bad date") {
		t.Errorf("bad to: err = %v, want it to name the field to", err)
	}
	r, err := ParseRangeArgs("-7d", "today", today)
	if err != nil || r.String() != "2026-11-15..2026-11-22" {
		t.Errorf("got %v, %v", r, err)
	}
}

func TestParseTime(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	now := time.Date(2026, 11, 22, 23, 30, 0, 0, time.UTC) // 00:30 on the 23rd in Berlin
	for in, want := range map[string]string{
		"09:14":                     "2026-11-23T09:14:00+01:00",
		"2026-07-01 13:56":          "2026-07-01T13:56:00+02:00",
		"2023-05-08T13:56:00":       "2023-05-08T13:56:00+02:00",
		"2023-05-08T13:56:00-04:00": "2023-05-08T13:56:00-04:00",
	} {
		got, err := ParseTime(in, now, berlin)
		if err != nil || got.Format(time.RFC3339) != want {
			t.Errorf("ParseTime(%q) = %v, %v; want %s", in, got.Format(time.RFC3339), err, want)
		}
	}
	for _, bad := range []string{"25:00", "yesterday noon", "2026-13-01 10:00"} {
		if _, err := ParseTime(bad, now, berlin); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("ParseTime(%q) err = %v, want an error naming it", bad, err)
		}
	}
}

func TestMonthAdd(t *testing.T) {
	m := Month{2026, time.March}
	for k, want := range map[int]string{0: "2026-03", 1: "2026-04", 9: "2026-12", 10: "2027-01", -2: "2026-01", -3: "2025-12", -27: "2023-12", 24: "2028-03"} {
		if got := m.Add(k).String(); got != want {
			t.Errorf("2026-03 + %d months = %s, want %s", k, got, want)
		}
	}
}

// AddMonths keeps the day, or takes the last day of a shorter month.
func TestAddMonths(t *testing.T) {
	for _, tc := range []struct {
		from string
		k    int
		want string
	}{
		{"2026-03-10", -1, "2026-02-10"}, {"2026-03-31", -1, "2026-02-28"}, {"2024-03-31", -1, "2024-02-29"},
		{"2026-01-31", 1, "2026-02-28"}, {"2026-12-15", 1, "2027-01-15"}, {"2026-01-15", -13, "2024-12-15"},
	} {
		if got := MustParse(tc.from).AddMonths(tc.k).String(); got != tc.want {
			t.Errorf("%s + %d months = %s, want %s", tc.from, tc.k, got, tc.want)
		}
	}
	if got := MustParse("2028-02-29").AddYears(-1).String(); got != "2027-02-28" {
		t.Errorf("2028-02-29 - 1 year = %s, want 2027-02-28", got)
	}
}

// CheckWall names the hour skipped when daylight saving time begins, and
// passes every time outside it.
func TestCheckWall(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip(err)
	}
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, berlin)
	for at, gap := range map[string]bool{"2026-03-29 02:30": true, "2026-03-29 01:59": false, "2026-03-29 03:00": false,
		"2026-03-29T00:30:00Z": false, "2026-10-25 02:30": false} {
		tm, err := ParseTime(at, now, berlin)
		if err != nil {
			t.Fatal(err)
		}
		err = CheckWall(at, tm, berlin)
		if gap != (err != nil) || gap && !strings.Contains(err.Error(), "from 02:00 to 03:00 on 2026-03-29") {
			t.Errorf("CheckWall(%s) = %v, want a gap: %v", at, err, gap)
		}
	}
}
