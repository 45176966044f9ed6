package recall

import (
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
)

func mustLoc(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("loading %s: %v", name, err)
	}
	return loc
}

func rng(from, to string) date.Range {
	var r date.Range
	if from != "" {
		r.From = date.MustParse(from)
	}
	if to != "" {
		r.To = date.MustParse(to)
	}
	return r
}

func TestParseTemporal(t *testing.T) {
	utc := time.UTC
	sun := time.Date(2026, 11, 22, 10, 0, 0, 0, utc) // a Sunday
	jan3 := time.Date(2026, 1, 3, 10, 0, 0, 0, utc)  // a Saturday
	mar1 := time.Date(2026, 3, 1, 10, 0, 0, 0, utc)  // a Sunday
	dec31 := time.Date(2025, 12, 31, 10, 0, 0, 0, utc)
	leap := time.Date(2024, 3, 1, 10, 0, 0, 0, utc)
	leapDay := time.Date(2024, 2, 29, 10, 0, 0, 0, utc)
	tests := []struct {
		query string
		now   time.Time
		want  date.Range
		rest  string
	}{
		{"what did I do yesterday", sun, rng("2026-11-21", "2026-11-21"), "what did I do"},
		{"Today: standup notes", sun, rng("2026-11-22", "2026-11-22"), "standup notes"},
		{"what happened last week?", sun, rng("2026-11-09", "2026-11-15"), "what happened?"},
		{"this week", sun, rng("2026-11-16", "2026-11-22"), ""},
		{"last month", sun, rng("2026-10-01", "2026-10-31"), ""},
		{"this month", sun, rng("2026-11-01", "2026-11-30"), ""},
		{"what was I doing last March?", sun, rng("2026-03-01", "2026-03-31"), "what was I doing?"},
		{"last March", mar1, rng("2025-03-01", "2025-03-31"), ""},
		{"last March", jan3, rng("2025-03-01", "2025-03-31"), ""},
		{"last April", time.Date(2026, 5, 2, 9, 0, 0, 0, utc), rng("2026-04-01", "2026-04-30"), ""},
		{"in June 2025 who did I meet about the migration?", sun, rng("2025-06-01", "2025-06-30"), "who did I meet about the migration?"},
		{"migration June 2025", sun, rng("2025-06-01", "2025-06-30"), "migration"},
		{"March 2024 offsite", sun, rng("2024-03-01", "2024-03-31"), "offsite"},
		{"trips 2024", sun, rng("2024-01-01", "2024-12-31"), "trips"},
		{"what did I read in 2023?", sun, rng("2023-01-01", "2023-12-31"), "what did I read?"},
		{"two months ago", jan3, rng("2025-11-01", "2025-11-30"), ""},
		{"3 weeks ago", jan3, rng("2025-12-08", "2025-12-14"), ""},
		{"5 days ago", mar1, rng("2026-02-24", "2026-02-24"), ""},
		{"a year ago", leapDay, rng("2023-01-01", "2023-12-31"), ""},
		{"the call on 2024-03-07 with Ana", sun, rng("2024-03-07", "2024-03-07"), "the call with Ana"},
		{"2024-03 budget", sun, rng("2024-03-01", "2024-03-31"), "budget"},
		{"since May", sun, rng("2026-05-01", "2026-11-22"), ""},
		{"since May", mar1, rng("2025-05-01", "2026-03-01"), ""},
		{"after March 2026", sun, rng("2026-04-01", "2026-11-22"), ""},
		{"decisions before 2024", sun, rng("", "2023-12-31"), "decisions"},
		{"until June 2025", sun, rng("", "2025-06-30"), ""},
		{"last year", jan3, rng("2025-01-01", "2025-12-31"), ""},
		{"this year", dec31, rng("2025-01-01", "2025-12-31"), ""},
		{"in June", sun, rng("2026-06-01", "2026-06-30"), ""},
		{"in December", sun, rng("2025-12-01", "2025-12-31"), ""},
		{"March 7th, 2024 dentist", sun, rng("2024-03-07", "2024-03-07"), "dentist"},
		{"7 March 2024", sun, rng("2024-03-07", "2024-03-07"), ""},
		{"march 7", sun, rng("2026-03-07", "2026-03-07"), ""},
		{"last tuesday", sun, rng("2026-11-17", "2026-11-17"), ""},
		{"on Sunday", sun, rng("2026-11-22", "2026-11-22"), ""},
		{"last weekend", sun, rng("2026-11-14", "2026-11-15"), ""},
		{"past 3 days", sun, rng("2026-11-20", "2026-11-22"), ""},
		// Month and year boundaries.
		{"yesterday", jan3, rng("2026-01-02", "2026-01-02"), ""},
		{"last week", jan3, rng("2025-12-22", "2025-12-28"), ""},
		{"this week", jan3, rng("2025-12-29", "2026-01-04"), ""},
		{"last month", jan3, rng("2025-12-01", "2025-12-31"), ""},
		{"yesterday", mar1, rng("2026-02-28", "2026-02-28"), ""},
		{"last month", mar1, rng("2026-02-01", "2026-02-28"), ""},
		{"this week", dec31, rng("2025-12-29", "2026-01-04"), ""},
		{"last December", dec31, rng("2024-12-01", "2024-12-31"), ""},
		{"last month", dec31, rng("2025-11-01", "2025-11-30"), ""},
		{"two months ago", dec31, rng("2025-10-01", "2025-10-31"), ""},
		{"past 2 months", dec31, rng("2025-11-01", "2025-12-31"), ""},
		// Three months back from 31 May is 28 February: the range starts
		// the day after, not three days into March.
		{"past 3 months", time.Date(2026, 5, 31, 12, 0, 0, 0, time.UTC), rng("2026-03-01", "2026-05-31"), ""},
		// The leap day.
		{"yesterday", leap, rng("2024-02-29", "2024-02-29"), ""},
		{"last month", leap, rng("2024-02-01", "2024-02-29"), ""},
		{"on 2024-02-29", sun, rng("2024-02-29", "2024-02-29"), ""},
		{"February 29 2024", sun, rng("2024-02-29", "2024-02-29"), ""},
		// Dates in digits: day first with dots, year first, and day and
		// month with slashes when one of them is over 12.
		{"With who did Paola have lunch on 21.01.2024?", sun, rng("2024-01-21", "2024-01-21"), "With who did Paola have lunch?"},
		{"what did Kevin watch on the night of 1.2.2024", sun, rng("2024-02-01", "2024-02-01"), "what did Kevin watch on the night of"},
		{"2024.01.21 standup", sun, rng("2024-01-21", "2024-01-21"), "standup"},
		{"the call on 2024/03/07", sun, rng("2024-03-07", "2024-03-07"), "the call"},
		{"on 21/01/2024", sun, rng("2024-01-21", "2024-01-21"), ""},
		{"on 01/21/2024", sun, rng("2024-01-21", "2024-01-21"), ""},
		{"on 29.02.2024", sun, rng("2024-02-29", "2024-02-29"), ""},
	}
	for _, tt := range tests {
		got, rest, ok := ParseTemporal(tt.query, tt.now, time.UTC)
		if !ok || got != tt.want || rest != tt.rest {
			t.Errorf("ParseTemporal(%q, %s) = %s, %q, %v; want %s, %q, true", tt.query, tt.now.Format(time.DateOnly), got, rest, ok, tt.want, tt.rest)
		}
	}
}

// The day of now is taken in loc, across the daylight saving switches.
func TestParseTemporalDST(t *testing.T) {
	berlin, ny := mustLoc(t, "Europe/Berlin"), mustLoc(t, "America/New_York")
	tests := []struct {
		query string
		now   time.Time
		loc   *time.Location
		want  date.Range
	}{
		// Berlin springs forward on 2026-03-29 at 02:00; 00:30 local is still the 28th in UTC.
		{"yesterday", time.Date(2026, 3, 29, 0, 30, 0, 0, berlin), berlin, rng("2026-03-28", "2026-03-28")},
		{"today", time.Date(2026, 3, 28, 23, 30, 0, 0, time.UTC), berlin, rng("2026-03-29", "2026-03-29")},
		{"this week", time.Date(2026, 3, 30, 0, 15, 0, 0, berlin), berlin, rng("2026-03-30", "2026-04-05")},
		{"last week", time.Date(2026, 3, 30, 0, 15, 0, 0, berlin), berlin, rng("2026-03-23", "2026-03-29")},
		// Berlin falls back on 2026-10-25.
		{"today", time.Date(2026, 10, 25, 23, 30, 0, 0, berlin), berlin, rng("2026-10-25", "2026-10-25")},
		{"yesterday", time.Date(2026, 10, 26, 0, 30, 0, 0, berlin), berlin, rng("2026-10-25", "2026-10-25")},
		{"last month", time.Date(2026, 10, 31, 23, 30, 0, 0, time.UTC), berlin, rng("2026-10-01", "2026-10-31")},
		// New York springs forward on 2026-03-08; 23:30 local is the 9th in UTC.
		{"yesterday", time.Date(2026, 3, 8, 23, 30, 0, 0, ny), ny, rng("2026-03-07", "2026-03-07")},
		{"5 days ago", time.Date(2026, 3, 9, 3, 30, 0, 0, time.UTC), ny, rng("2026-03-03", "2026-03-03")},
		// New York falls back on 2026-11-01, a Sunday: still last week's Sunday in New York.
		{"last week", time.Date(2026, 11, 2, 1, 0, 0, 0, time.UTC), ny, rng("2026-10-19", "2026-10-25")},
		{"this week", time.Date(2026, 11, 1, 20, 0, 0, 0, ny), ny, rng("2026-10-26", "2026-11-01")},
		{"last month", time.Date(2026, 11, 1, 1, 0, 0, 0, ny), ny, rng("2026-10-01", "2026-10-31")},
	}
	for _, tt := range tests {
		got, _, ok := ParseTemporal(tt.query, tt.now, tt.loc)
		if !ok || got != tt.want {
			t.Errorf("ParseTemporal(%q, %s in %s) = %s, %v; want %s", tt.query, tt.now.Format(time.RFC3339), tt.loc, got, ok, tt.want)
		}
	}
}

// Words that look like dates but are not one are left in the query.
func TestParseTemporalNoPhrase(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	for _, q := range []string{
		"",
		"argon2 password hashing",
		"march forward with the rollout",
		"we march on",
		"may I see the budget notes",
		"2024 tokens per request",
		"the 2024 tokens budget",
		"a budget of 300 dollars",
		"version 2.5 of the parser",
		"on 01/02/2024", // 1 February or 2 January: no date
		"on 31.02.2024",
		"on 21.13.2024",
		"release 10.4.1",
		"3.5 hours ago",
		"last summer", // seasons are not supported
		"on 2023-02-29",
		"the last mile of the project",
		"days of thunder",
	} {
		r, rest, ok := ParseTemporal(q, now, time.UTC)
		if ok || rest != q {
			t.Errorf("ParseTemporal(%q) = %s, %q, %v; want no phrase and the query unchanged", q, r, rest, ok)
		}
	}
}

func BenchmarkParseTemporal(b *testing.B) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	for _, q := range []string{
		"in June 2025 who did I meet about the migration?",
		"argon2 password hashing decision",
	} {
		b.Run(q[:8], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ParseTemporal(q, now, time.UTC)
			}
		})
	}
}
