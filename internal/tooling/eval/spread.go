package eval

import (
	"slices"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/adapters/importer"
)

// Spread returns c with its days moved apart: the k-th distinct day of its
// messages (0-based, in date order) becomes its first day plus k×days, each
// message keeping its time of day. A chat of three weeks then spans months,
// as LoCoMo's conversations do, so that the drill must route through months
// and years that differ. The order of the messages and of the days is kept;
// a question that names a date no longer finds that date. days < 1 returns
// c as it is. c's own sessions are not changed.
func Spread(c importer.Conversation, days int) importer.Conversation {
	if days < 1 {
		return c
	}
	var all []date.Date
	for _, s := range c.Sessions {
		for _, m := range s.Messages {
			if !m.At.IsZero() {
				all = append(all, date.Of(m.At))
			}
		}
	}
	slices.SortFunc(all, date.Date.Compare)
	all = slices.Compact(all)
	if len(all) == 0 {
		return c
	}
	// moved returns t on its day's new date, at the same time of day.
	moved := func(t time.Time) time.Time {
		d := date.Of(t)
		k, ok := slices.BinarySearchFunc(all, d, date.Date.Compare)
		if !ok {
			return t // a session's start that no message shares
		}
		return t.AddDate(0, 0, daysBetween(d, all[0].AddDays(k*days)))
	}
	out := c
	out.Sessions = slices.Clone(c.Sessions)
	for i := range out.Sessions {
		s := &out.Sessions[i]
		if !s.At.IsZero() {
			s.At = moved(s.At)
		}
		s.Messages = slices.Clone(s.Messages)
		for j := range s.Messages {
			if m := &s.Messages[j]; !m.At.IsZero() {
				m.At = moved(m.At)
			}
		}
	}
	return out
}

// daysBetween returns the number of days from a to b.
func daysBetween(a, b date.Date) int {
	return int(b.In(time.UTC).Sub(a.In(time.UTC)).Hours() / 24)
}
