package reliability

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/adapters/api"
)

// child is a daybook CLI started in the background.
type child struct {
	cmd    *exec.Cmd
	out    bytes.Buffer
	errb   bytes.Buffer
	done   chan struct{}
	err    error
	killed bool // SIGKILL reached it while it ran
}

func (r *rig) start(args ...string) *child {
	r.t.Helper()
	c := &child{cmd: r.cmd(args...), done: make(chan struct{})}
	c.cmd.Stdout, c.cmd.Stderr = &c.out, &c.errb
	if err := c.cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	go func() { c.err = c.cmd.Wait(); close(c.done) }()
	return c
}

// kill sends SIGKILL if c still runs, and waits.
func (c *child) kill() {
	select {
	case <-c.done:
		return
	default:
	}
	c.cmd.Process.Signal(syscall.SIGKILL)
	<-c.done
	if ws, ok := c.cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
		c.killed = true
	}
}

// ack is where a remember said it wrote an entry.
type ack struct {
	rel  string
	line int
}

func parseAck(t testing.TB, out string) ack {
	t.Helper()
	s := strings.TrimSpace(out)
	i := strings.LastIndexByte(s, ':')
	line, err := strconv.Atoi(s[i+1:])
	if i < 0 || err != nil {
		t.Fatalf("remember printed %q, not path:line", out)
	}
	return ack{s[:i], line}
}

// checkAcked checks that every acknowledged entry is in its day file exactly
// once, on the line remember printed, and that nothing tried is there twice.
func checkAcked(t testing.TB, dir string, acked map[string]ack, tried []string) {
	t.Helper()
	have := dayEntries(t, dir)
	for text, a := range acked {
		if n := have[text]; n != 1 {
			t.Errorf("acknowledged entry %q is there %d times, want once", text, n)
		}
		if got, ok := entryAt(t, dir, a.rel, a.line); !ok || got != text {
			t.Errorf("%s:%d holds %q, want the acknowledged %q", a.rel, a.line, got, text)
		}
	}
	for _, text := range tried {
		if have[text] > 1 {
			t.Errorf("entry %q is there %d times", text, have[text])
		}
	}
}

// TestKillDuringRemember starts eight "daybook remember" processes on the
// same day file at once and SIGKILLs those still running after a random
// delay, many times over. Every entry a process acknowledged (printed
// path:line and exited 0) must be on that line exactly once; no entry may be
// there twice; every day file must parse.
func TestKillDuringRemember(t *testing.T) {
	r := newRig(t, "")
	rng := newRand(t)
	n := runs(15, 100)
	acked := map[string]ack{}
	var tried []string
	kills := 0
	for run := range n {
		var cs []*child
		for k := range 8 {
			text := fmt.Sprintf("remember run %d writer %d crashtok%dx%d", run, k, run, k)
			tried = append(tried, text)
			cs = append(cs, r.start("remember", text))
		}
		time.Sleep(randomDelay(rng, 30*time.Millisecond))
		for k, c := range cs {
			c.kill()
			if c.killed {
				kills++
				continue
			}
			if c.err != nil {
				t.Fatalf("remember failed without a kill: %v: %s", c.err, c.errb.String())
			}
			acked[tried[len(tried)-8+k]] = parseAck(t, c.out.String())
		}
	}
	checkAcked(t, r.dir, acked, tried)
	// The day file still takes appends after all that.
	a := parseAck(t, r.must("remember", "after the kills"))
	if got, _ := entryAt(t, r.dir, a.rel, a.line); got != "after the kills" {
		t.Errorf("the append after the kills landed as %q", got)
	}
	t.Logf("remember: %d runs, %d processes killed, %d entries acknowledged and checked, %d tried", n, kills, len(acked), len(tried))
	if kills == 0 {
		t.Errorf("no process was killed while it ran: the test proved nothing")
	}
}

// TestKillDaemonDuringRemember runs CLIs that remember through the daemon's
// socket while the daemon is SIGKILLed at a random moment; then a new daemon
// starts on the stale socket and pid file, and recall finds every
// acknowledged entry through the index.
func TestKillDaemonDuringRemember(t *testing.T) {
	r := newRig(t, "consolidate:\n  debounce: 100ms\n")
	rng := newRand(t)
	n := runs(3, 25)
	acked := map[string]ack{}
	var tried []string
	for run := range n {
		d := r.startDaemon()
		stop := make(chan struct{})
		results := make(chan map[string]ack, 4)
		triedc := make(chan []string, 4)
		for w := range 4 {
			go func() {
				got := map[string]ack{}
				var mine []string
				for i := 0; ; i++ {
					select {
					case <-stop:
						results <- got
						triedc <- mine
						return
					default:
					}
					text := fmt.Sprintf("daemon run %d writer %d entry %d dkill%dw%di%d", run, w, i, run, w, i)
					mine = append(mine, text)
					out, err := r.daybook("remember", text)
					if err == nil {
						got[text] = parseAck(t, out)
					}
				}
			}()
		}
		time.Sleep(200*time.Millisecond + randomDelay(rng, 800*time.Millisecond))
		d.kill()
		time.Sleep(50 * time.Millisecond) // writers go on without the daemon, on the files
		close(stop)
		for range 4 {
			for k, v := range <-results {
				acked[k] = v
			}
			tried = append(tried, <-triedc...)
		}
	}
	checkAcked(t, r.dir, acked, tried)
	// A new daemon takes over the stale socket and pid file and brings the
	// index up to date by itself.
	d := r.startDaemon()
	defer d.stop()
	c := r.client()
	defer c.Close()
	missing := 0
	checked := 0
	for text := range acked {
		if checked >= runs(40, 400) {
			break
		}
		checked++
		tok := text[strings.LastIndexByte(text, ' ')+1:]
		if !recallFinds(t, c, tok, text, 30*time.Second) {
			missing++
			t.Errorf("after restart, recall (bm25 over the index) does not find %q", text)
		}
	}
	t.Logf("daemon: %d kills, %d entries acknowledged through the socket or the files, %d recalled after restart (%d missing)", n, len(acked), checked, missing)
	if len(acked) == 0 {
		t.Errorf("no entry was acknowledged: the test proved nothing")
	}
}

// recallFinds asks the index (bm25 mode, no linear fallback) for tok until
// the entry with text shows up or limit passes.
func recallFinds(t testing.TB, c *api.Client, tok, text string, limit time.Duration) bool {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		resp, err := c.Recall(ctx, daybook.RecallRequest{Query: tok, Mode: "bm25", Limit: 5})
		cancel()
		if err == nil {
			for _, res := range resp.Results {
				if strings.Contains(res.Snippet, tok) || strings.Contains(stripMarks(res.Snippet), tok) {
					return true
				}
			}
		}
		if time.Now().After(deadline) {
			if err != nil {
				t.Logf("recall %q: %v", tok, err)
			}
			return false
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func stripMarks(s string) string {
	return strings.NewReplacer("**", "", "<mark>", "", "</mark>", "").Replace(s)
}

// TestKillDuringImport SIGKILLs "daybook import" of thousands of lines over
// many days at a random moment. Whatever landed must parse, hold no entry
// twice, and be, day by day, a prefix of the input in order (a batch is one
// write per day: whole or absent). An import that finished must hold all.
func TestKillDuringImport(t *testing.T) {
	r := newRig(t, "")
	rng := newRand(t)
	n := runs(4, 100)
	first := date.MustParse("2024-03-01")
	kills, finished, landedTotal := 0, 0, 0
	var full time.Duration
	for run := range n {
		data, texts := jsonLines(first, 40, 12000, fmt.Sprintf("run%d", run))
		file := filepath.Join(t.TempDir(), "in.jsonl")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		c := r.start("import", file)
		if run == 0 {
			<-c.done // the first run measures how long an import takes
			full = time.Since(start)
		} else {
			time.Sleep(killDelay(rng, full, run, n, kills))
			c.kill()
		}
		have := dayEntries(t, r.dir)
		landed := 0
		// Day by day, the entries of this run that landed are the first ones
		// of that day in input order.
		for day := range 40 {
			gap := false
			for i := day; i < len(texts); i += 40 {
				switch k := have[texts[i]]; {
				case k > 1:
					t.Fatalf("run %d: %q imported %d times", run, texts[i], k)
				case k == 1 && gap:
					t.Fatalf("run %d: %q landed after an earlier entry of its day did not", run, texts[i])
				case k == 1:
					landed++
				default:
					gap = true
				}
			}
		}
		landedTotal += landed
		switch {
		case c.killed:
			kills++
		case c.err != nil:
			t.Fatalf("import failed without a kill: %v: %s", c.err, c.errb.String())
		default:
			finished++
			if landed != len(texts) {
				t.Fatalf("run %d: import finished but %d of %d entries are there", run, landed, len(texts))
			}
		}
	}
	r.must("remember", "after the import kills")
	t.Logf("import: %d runs of 12000 lines (a full one takes %v), %d killed, %d finished, %d entries checked in place", n, full.Round(time.Millisecond), kills, finished, landedTotal)
	if kills == 0 {
		t.Errorf("no import was killed while it ran")
	}
}

// TestKillDuringConsolidate SIGKILLs "daybook consolidate" at random
// moments: every summary left must parse, and the next run must finish the
// work and leave a summary for every day.
func TestKillDuringConsolidate(t *testing.T) {
	r := newRig(t, "")
	rng := newRand(t)
	n := runs(4, 100)
	days := 90
	corpus(t, r.dir, date.MustParse("2025-01-01"), days, 12, "cons")
	start := time.Now()
	r.must("consolidate", "--force")
	full := time.Since(start)
	kills, left := 0, 0
	for run := range n {
		c := r.start("consolidate", "--force")
		time.Sleep(killDelay(rng, full, run, n, kills))
		c.kill()
		if c.killed {
			kills++
		}
		checkSummaries(t, r.dir)
		left += tempFiles(t, r.dir)
	}
	out := r.must("consolidate")
	sums := checkSummaries(t, r.dir)
	// 90 days, the three months they touch, one year.
	if want := days + 3 + 1; sums != want {
		t.Errorf("after the kills and one more run there are %d summaries, want %d (%s)", sums, want, strings.TrimSpace(out))
	}
	if n := tempFiles(t, r.dir); n > 0 {
		t.Errorf("%d temp files of killed runs are still there after a run that finished", n)
	}
	again := r.must("consolidate")
	if !strings.Contains(again, "0 days, 0 months, 0 years") && !strings.Contains(again, "wrote 0") {
		t.Logf("a second run after recovery: %s", strings.TrimSpace(again))
	}
	t.Logf("consolidate: %d runs (a full one takes %v), %d killed mid-run, %d summaries parse after recovery, %d temp files seen after kills, all removed by the next run",
		n, full.Round(time.Millisecond), kills, sums, left)
	if kills == 0 {
		t.Errorf("no consolidation was killed while it ran")
	}
}

// TestKillDuringReindex SIGKILLs "daybook reindex" at random moments; then
// the daemon must open (or rebuild) the index by itself and recall must find
// entries through it.
func TestKillDuringReindex(t *testing.T) {
	r := newRig(t, "")
	rng := newRand(t)
	n := runs(4, 100)
	texts := corpus(t, r.dir, date.MustParse("2025-01-01"), 40, 10, "idx")
	start := time.Now()
	r.must("reindex")
	full := time.Since(start)
	kills := 0
	for run := range n {
		c := r.start("reindex")
		time.Sleep(killDelay(rng, full, run, n, kills))
		c.kill()
		if c.killed {
			kills++
		}
	}
	// A day written after the last kill must be indexed too.
	extra := "written after the reindex kills reidxtoken"
	r.must("remember", "--at", "2025-03-01 10:00", extra)
	d := r.startDaemon()
	defer d.stop()
	c := r.client()
	defer c.Close()
	checked := 0
	for _, text := range []string{extra, texts[0], texts[len(texts)/2], texts[len(texts)-1]} {
		tok := strings.Fields(text)[0] + " " + strings.Join(strings.Fields(text)[1:5], " ")
		if text == extra {
			tok = "reidxtoken"
		}
		if !recallAny(t, c, tok, text, 60*time.Second) {
			t.Errorf("after the reindex kills, recall through the index does not find %q\n%s", text, d.logText())
		}
		checked++
	}
	t.Logf("reindex: %d runs (a full one takes %v), %d killed mid-run, %d recalls checked after restart", n, full.Round(time.Millisecond), kills, checked)
	if kills == 0 {
		t.Errorf("no reindex was killed while it ran")
	}
}

// recallAny asks the index (bm25) for query until a hit's snippet holds
// the entry's distinctive words.
func recallAny(t testing.TB, c *api.Client, query, text string, limit time.Duration) bool {
	t.Helper()
	deadline := time.Now().Add(limit)
	words := strings.Fields(text)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		resp, err := c.Recall(ctx, daybook.RecallRequest{Query: query, Mode: "bm25", Limit: 20})
		cancel()
		if err == nil {
			for _, res := range resp.Results {
				s := stripMarks(res.Snippet)
				if strings.Contains(s, strings.Join(words[len(words)-4:], " ")) || strings.Contains(s, "reidxtoken") && strings.Contains(text, "reidxtoken") {
					if dayfiles.RelPath(date.Date{}) != res.Path { // a real hit with a path
						return true
					}
				}
			}
		}
		if time.Now().After(deadline) {
			if err != nil {
				t.Logf("recall %q: %v", query, err)
			} else {
				t.Logf("recall %q: %d results, none with %q", query, len(resp.Results), text)
			}
			return false
		}
		time.Sleep(200 * time.Millisecond)
	}
}
