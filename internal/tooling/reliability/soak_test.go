package reliability

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// sample is the daemon's resident memory and open files at one moment.
type sample struct {
	at  time.Duration
	rss int64 // KiB
	fds int
}

func measure(t *testing.T, pid int) (int64, int) {
	t.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc here: %v", err)
	}
	var rss int64
	for _, l := range strings.Split(string(status), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			rss, _ = strconv.ParseInt(f[1], 10, 64)
		}
	}
	fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	return rss, len(fds)
}

// TestSoak runs the daemon under steady remember and recall load (30 s, or
// 10 minutes with -long), sampling its resident memory and open files each
// second. Both must stay flat: the last quarter of the run may not sit far
// above the second. Near the end a person edits a day file by hand, and the
// edit must still reach the index through the watcher.
func TestSoak(t *testing.T) {
	r := newRig(t, "")
	corpus(t, r.dir, date.MustParse("2025-06-01"), 30, 8, "soak")
	d := r.startDaemon()
	defer d.stop()
	dur := time.Duration(runs(30, 600)) * time.Second
	start := time.Now()
	stop := start.Add(dur)
	var remembers, recalls, errs int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Go(func() {
		c := r.client()
		defer c.Close()
		for i := 0; time.Now().Before(stop); i++ {
			_, err := c.Remember(context.Background(), daybook.RememberRequest{Text: fmt.Sprintf("soak entry %d about the garden and the budget", i)})
			mu.Lock()
			remembers++
			if err != nil {
				errs++
			}
			mu.Unlock()
			time.Sleep(20 * time.Millisecond)
		}
	})
	wg.Go(func() {
		c := r.client()
		defer c.Close()
		qs := []string{"garden budget", "what did we decide about the deploy", "piano last June", "invoice"}
		for i := 0; time.Now().Before(stop); i++ {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			_, err := c.Recall(ctx, daybook.RecallRequest{Query: qs[i%len(qs)], Limit: 5})
			cancel()
			mu.Lock()
			recalls++
			if err != nil {
				errs++
			}
			mu.Unlock()
			time.Sleep(50 * time.Millisecond)
		}
	})
	// A CLI now and then too: each is a new connection.
	wg.Go(func() {
		for i := 0; time.Now().Before(stop); i++ {
			if _, err := r.daybook("remember", fmt.Sprintf("soak cli entry %d", i)); err != nil {
				mu.Lock()
				errs++
				mu.Unlock()
			}
			time.Sleep(500 * time.Millisecond)
		}
	})
	var samples []sample
	edited := false
	const editTok = "lateedittoken"
	for time.Now().Before(stop) {
		rss, fds := measure(t, d.pid())
		samples = append(samples, sample{time.Since(start), rss, fds})
		if !edited && time.Since(start) > dur*85/100 {
			// A person appends to an old day by hand, late in the run.
			f, err := os.OpenFile(dayfiles.Path(r.dir, date.MustParse("2025-06-10")), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(f, "- 22:00 edited by hand late in the soak %s\n", editTok)
			f.Close()
			edited = true
		}
		time.Sleep(time.Second)
	}
	wg.Wait()
	c := r.client()
	defer c.Close()
	if !recallFinds(t, c, editTok, editTok, 15*time.Second) {
		t.Errorf("an edit late in the run did not reach the index: the watcher died\n%s", tail(d.logText(), 2000))
	}
	if errs > 0 {
		t.Errorf("%d requests failed during the soak", errs)
	}
	n := len(samples)
	if n < 8 {
		t.Fatalf("only %d samples", n)
	}
	q2, q4 := samples[n/4:n/2], samples[3*n/4:]
	med := func(s []sample, f func(sample) int64) int64 {
		v := make([]int64, len(s))
		for i, x := range s {
			v[i] = f(x)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	rss := func(s sample) int64 { return s.rss }
	fds := func(s sample) int64 { return int64(s.fds) }
	rss2, rss4 := med(q2, rss), med(q4, rss)
	fd2, fd4 := med(q2, fds), med(q4, fds)
	maxFD := slices.MaxFunc(samples, func(a, b sample) int { return a.fds - b.fds }).fds
	t.Logf("soak %v: %d remembers, %d recalls, %d errors; RSS median %d MiB in the 2nd quarter, %d MiB in the last; open files %d then %d (max %d); %d samples",
		dur, remembers, recalls, errs, rss2>>10, rss4>>10, fd2, fd4, maxFD, n)
	if rss4 > rss2*3/2+32<<10 {
		t.Errorf("resident memory grew from %d MiB to %d MiB", rss2>>10, rss4>>10)
	}
	if fd4 > fd2+8 {
		t.Errorf("open files grew from %d to %d", fd2, fd4)
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
