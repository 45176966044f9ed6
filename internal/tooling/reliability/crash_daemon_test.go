package reliability

import (
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
)

// TestKillDaemonDuringBackfill SIGKILLs the daemon at random moments while
// it backfills the summaries and opens the index of 90 days; a new daemon
// must finish the work by itself: every summary parses, every day has one,
// and recall finds entries through the index.
func TestKillDaemonDuringBackfill(t *testing.T) {
	r := newRig(t, "")
	rng := newRand(t)
	n := runs(4, 100)
	days := 90
	texts := corpus(t, r.dir, date.MustParse("2025-01-01"), days, 12, "back")
	kills := 0
	var full time.Duration
	for run := range n {
		start := time.Now()
		d := r.spawnDaemon()
		if run == 0 {
			d.waitReady(60 * time.Second)
			if e := r.waitJob("backfill", start, 120*time.Second); e != "" {
				t.Fatalf("backfill: %s", e)
			}
			full = time.Since(start)
			d.kill()
			// Throw the work away, so that the kills below land in it.
			r.must("reindex")
			r.must("consolidate", "--force")
			continue
		}
		time.Sleep(randomDelay(rng, full))
		d.kill()
		kills++
		checkSummaries(t, r.dir)
	}
	start := time.Now()
	d := r.startDaemon()
	defer d.stop()
	if e := r.waitJob("backfill", start, 120*time.Second); e != "" {
		t.Fatalf("backfill after the kills: %s\n%s", e, d.logText())
	}
	sums := checkSummaries(t, r.dir)
	if want := days + 3 + 1; sums != want {
		t.Errorf("after the kills the daemon left %d summaries, want %d", sums, want)
	}
	c := r.client()
	defer c.Close()
	for _, text := range []string{texts[0], texts[len(texts)/2], texts[len(texts)-1]} {
		w := strings.Fields(text)
		if !recallAny(t, c, strings.Join(w[:5], " "), text, 60*time.Second) {
			t.Errorf("after the kills, recall through the index does not find %q", text)
		}
	}
	t.Logf("daemon backfill: %d kills at random moments of a %v backfill + index build; %d summaries parse after restart",
		kills, full.Round(time.Millisecond), sums)
}
