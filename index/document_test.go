package index

import (
	"strings"
	"testing"

	"github.com/daybook/daybook/dayfiles/date"
)

func TestValidate(t *testing.T) {
	d := date.MustParse("2024-03-09")
	m := d.MonthOf()
	for _, tc := range []struct {
		doc  Doc
		want string // "" for valid
	}{
		{Doc{ID: "2024-03-09T09:00-ab", Level: date.LevelEntry, Period: "2024-03-09", Start: d, End: d}, ""},
		{Doc{ID: "anything", Level: date.LevelEntry, Period: "2024-03-09", Start: d, End: d}, ""},
		{Doc{ID: "day:2024-03-09", Level: date.LevelDay, Period: "2024-03-09", Start: d, End: d}, ""},
		{Doc{ID: "month:2024-03", Level: date.LevelMonth, Period: "2024-03", Start: m.First(), End: m.Last()}, ""},
		{Doc{ID: "year:2024", Level: date.LevelYear, Period: "2024", Start: d, End: d}, ""},
		{Doc{Level: date.LevelEntry, Period: "2024-03-09", Start: d, End: d}, "no id"},
		{Doc{ID: "x", Level: "week", Period: "2024-03-09", Start: d, End: d}, `unknown level "week"`},
		{Doc{ID: "x", Level: date.LevelDay, Period: "2024-03", Start: d, End: d}, `period "2024-03" does not fit level day`},
		{Doc{ID: "x", Level: date.LevelEntry, Period: "2024-03-09"}, "no start or end date"},
		// A summary's id is its level and period: the drill names the
		// children of a parent by their ids.
		{Doc{ID: "extra-day", Level: date.LevelDay, Period: "2024-03-09", Start: d, End: d}, `document extra-day: a day summary's id must be "day:2024-03-09"`},
		{Doc{ID: "month:2024-04", Level: date.LevelMonth, Period: "2024-03", Start: m.First(), End: m.Last()}, `must be "month:2024-03"`},
	} {
		err := tc.doc.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("Validate(%+v) = %v, want nil", tc.doc, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("Validate(%+v) = %v, want an error with %q", tc.doc, err, tc.want)
		}
	}
}

func TestChildIDs(t *testing.T) {
	got := childIDs(date.LevelMonth, []string{"2024"})
	if len(got) != 12 || got[0] != "month:2024-01" || got[11] != "month:2024-12" {
		t.Errorf("months of 2024 = %v", got)
	}
	got = childIDs(date.LevelDay, []string{"2024-02", "2023-02"})
	if len(got) != 29+28 || got[0] != "day:2024-02-01" || got[28] != "day:2024-02-29" || got[56] != "day:2023-02-28" {
		t.Errorf("days of February 2024 and 2023 = %v", got)
	}
	for _, tc := range []struct {
		level   date.Level
		parents []string
	}{
		{date.LevelYear, nil},
		{date.LevelEntry, []string{"2024-02-03"}},
		{date.LevelMonth, nil},
		{date.LevelMonth, []string{"2024-02"}}, // not a year
		{date.LevelDay, []string{"2024"}},      // not a month
		{date.LevelDay, []string{"2024-13"}},   // no such month
		{date.LevelMonth, make([]string, 32)},  // over maxChildIDs
	} {
		if got := childIDs(tc.level, tc.parents); got != nil {
			t.Errorf("childIDs(%s, %v) = %v, want nil", tc.level, tc.parents, got)
		}
	}
}
