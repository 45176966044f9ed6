package daemon

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
	_ "time/tzdata" // zones by name on machines without zoneinfo

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/consolidate"
)

// TestDaemon400Days drives a daemon through 400 days of virtual time: an
// entry is remembered three times a day at the App's clock, and cron fires
// the daily, monthly and yearly jobs at 02:00, 03:00 on the 1st and 04:00 on
// 1 January in Asia/Tokyo (no DST, so no 02:00 gap). Every closed day, month
// and year ends with exactly one summary, written exactly once, and current.
func TestDaemon400Days(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates 400 days: about a minute of CPU; the full suite runs it")
	}
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		var lb logBuf
		a := newTestApp(t, dir, testConfig(t, "Asia/Tokyo"), &lb, nil) // time.Now is the bubble's clock
		var mu sync.Mutex
		writes := map[string]int{}
		a.OnSummary(func(ctx context.Context, s *consolidate.Summary) {
			mu.Lock()
			writes[s.Period.ID()]++
			mu.Unlock()
		})
		c := consolidatorFor(a)
		// No index: bleve starts a package-level analysis goroutine outside the bubble.
		d, err := newDaemon(a, c, Options{NoWatch: true, NoIndex: true, JumpEvery: -1})
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Run(); err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		first := a.Today()
		for i := range 400 {
			for _, h := range []time.Duration{0, 4 * time.Hour, 5 * time.Hour} {
				time.Sleep(h)
				kind := []string{"fact", "decision", "event"}[i%3]
				if _, err := a.Remember(ctx, daybook.RememberRequest{Text: fmt.Sprintf("day %d: worked on #project%d with Alice", i, i%7), Kind: kind}); err != nil {
					t.Fatal(err)
				}
			}
			time.Sleep(15 * time.Hour) // to 09:00 the next day, through 02:00, 03:00 and 04:00
			synctest.Wait()
		}
		if next := d.Jobs(); len(next) == 0 {
			t.Fatal("no jobs")
		}
		for _, j := range d.Jobs() {
			if j.LastError != "" {
				t.Errorf("job %s: %s", j.Name, j.LastError)
			}
			if j.Name == JobDaily {
				want := a.Today().At(2, 0, a.Loc()).AddDate(0, 0, 1)
				if !j.NextRun.Equal(want) {
					t.Errorf("daily next run %v, want %v", j.NextRun, want)
				}
			}
		}
		if err := d.Close(ctx); err != nil {
			t.Fatal(err)
		}

		today := a.Today()
		want := map[string]bool{}
		for day := first; day.Before(today); day = day.AddDays(1) {
			want[consolidate.DayPeriod(day).Rel()] = true
			want[consolidate.MonthPeriod(day.MonthOf()).Rel()] = consolidate.MonthPeriod(day.MonthOf()).Closed(today)
			want[consolidate.YearPeriod(day.Year).Rel()] = day.Year < today.Year
		}
		got := summaryFiles(t, dir)
		for rel, closed := range want {
			if _, ok := got[rel]; ok != closed {
				t.Errorf("%s: exists %v, want %v", rel, ok, closed)
			}
		}
		n := 0
		for rel := range got {
			if isSummary(rel) {
				n++
				if !want[rel] {
					t.Errorf("unexpected summary %s", rel)
				}
			} else if !strings.HasPrefix(rel, "summaries/.") {
				t.Errorf("stray file %s", rel)
			}
		}
		for id, k := range writes {
			if k != 1 {
				t.Errorf("%s written %d times", id, k)
			}
		}
		if len(writes) != n {
			t.Errorf("%d summaries written, %d on disk", len(writes), n)
		}
		stale, err := c.Stale(ctx)
		if err != nil || len(stale) != 0 {
			t.Errorf("stale after 400 days: %v %v", stale, err)
		}
		if n != 400+13+1 {
			t.Errorf("%d summaries; want 400 days, 13 months and 1 year", n)
		}
	})
}
