package merge

import (
	"bytes"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// syncBuffer is a bytes.Buffer safe for the log handler's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// StallProbe is the editor of issue 34 scaled by Scale: every 1.3–3 s it
// reads the day file, adds a line, and saves in place through one
// descriptor (truncate, the first part cut inside a line, a stall of
// 0.3–0.6 s, the rest at its own offset), while appends come in a loop.
type StallProbe struct {
	Path  string
	Scale float64
	Rand  *rand.Rand

	Saves int
	Notes []string // the lines the editor added, "HH:MM text"
}

func (p *StallProbe) span(lo, hi float64) time.Duration {
	return time.Duration((lo + p.Rand.Float64()*(hi-lo)) * p.Scale * float64(time.Second))
}

// Save does one stalled save; it adds "- 00:MM editor line N".
func (p *StallProbe) Save() error {
	cur, err := os.ReadFile(p.Path)
	if err != nil {
		return err
	}
	p.Saves++
	note := fmt.Sprintf("editor line %d", p.Saves)
	line := fmt.Sprintf("- 00:%02d %s\n", p.Saves%60, note)
	p.Notes = append(p.Notes, fmt.Sprintf("00:%02d %s", p.Saves%60, note))
	content := string(cur)
	if content != "" && !strings.HasSuffix(content, "\n") {
		content += "\n"
	}
	if p.Rand.IntN(2) == 0 {
		title, rest, _ := strings.Cut(content, "\n\n") // under the title
		content = title + "\n\n" + line + rest
	} else {
		content += line
	}
	// The cut falls inside a line: not on a newline nor just after one.
	cut := len(content) / 2
	for k := 0; k < 50; k++ {
		c := 1 + p.Rand.IntN(len(content)-1)
		if content[c-1] != '\n' && content[c] != '\n' {
			cut = c
			break
		}
	}
	f, err := os.OpenFile(p.Path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.WriteString(content[:cut]); err != nil {
		return err
	}
	// The stall is the scenario (an editor that stalls mid-write), not a
	// wait for a result.
	time.Sleep(p.span(0.3, 0.6))
	_, err = f.WriteString(content[cut:])
	return err
}

// Pause is the time between two saves.
func (p *StallProbe) Pause() time.Duration { return p.span(1.3, 3) }

// TestEditorStallProbe runs the stalled editor against a Keeper that
// appends in a loop and merges what the real watcher reports (fsnotify),
// as the daemon wires them, at 0.3 of the real durations (the settle time
// too). Every acknowledged entry and every line the editor added is
// in the file once at the end, no line is torn, and no entry was taken
// for a deletion by hand.
func TestEditorStallProbe(t *testing.T) {
	// 0.3: the settle time is then 600 ms, well above the stalls of a
	// goroutine on a busy 2-core machine, as 2 s is above a real editor's.
	const scale = 0.3
	root := t.TempDir()
	logs := &syncBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var k *Keeper
	k = New(root, Options{Loc: func() *time.Location { return time.UTC }, Log: log,
		Settle: time.Duration(scale * float64(Settle)),
		Again:  func(days []date.Date) { k.Changed(days) }})
	defer k.Close()
	w, err := dayfiles.Watch(root, dayfiles.WatchOptions{Debounce: time.Duration(scale * float64(200*time.Millisecond)), Heartbeat: -1},
		func(days []date.Date) { k.Changed(days) })
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()

	at := func(hhmm string) time.Time {
		v, _ := time.Parse("2006-01-02 15:04", day.String()+" "+hhmm)
		return v
	}
	remember := func(text string) error {
		_, err := k.Append([]dayfiles.NewEntry{{At: at("09:00"), Text: text}}, nil)
		return err
	}
	for i := range 5 {
		if err := remember(fmt.Sprintf("before the editor %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	runFor := 10 * time.Second
	if testing.Short() {
		runFor = 5 * time.Second
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	probe := &StallProbe{Path: dayfiles.Path(root, day), Scale: scale, Rand: rand.New(rand.NewPCG(seed, 34))}

	var (
		stop  atomic.Bool
		wg    sync.WaitGroup
		mu    sync.Mutex
		acked []string
	)
	for i := range 5 {
		acked = append(acked, fmt.Sprintf("09:00 before the editor %d", i))
	}
	for g := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; !stop.Load(); n++ {
				text := fmt.Sprintf("remembered by %d number %d", g, n)
				if err := remember(text); err != nil {
					t.Errorf("remember: %v", err)
					return
				}
				mu.Lock()
				acked = append(acked, "09:00 "+text)
				mu.Unlock()
				time.Sleep(time.Duration(rand.IntN(20)) * time.Millisecond)
			}
		}()
	}
	start := time.Now()
	for time.Since(start) < runFor {
		if err := probe.Save(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(probe.Pause())
	}
	stop.Store(true)
	wg.Wait()
	// A last append merges, under the lock, whatever the watcher has not yet.
	if err := remember("after the editor"); err != nil {
		t.Fatal(err)
	}
	acked = append(acked, "09:00 after the editor")
	r := checkProbe(t, probe.Path, acked, probe.Notes)
	t.Logf("%d saves; %d acknowledged, %d lost, %d duplicated; %d editor lines, %d lost; %d torn",
		probe.Saves, len(acked), r.lost, r.dup, len(probe.Notes), r.notesLost, r.torn)
	if r.lost+r.dup+r.notesLost+r.torn > 0 {
		t.Errorf("the file:\n%s\nthe log:\n%s", readTail(probe.Path), tailString(logs.String(), 6000))
	}
	if strings.Contains(logs.String(), "removed or changed by hand") {
		t.Errorf("an entry was taken for a deletion by hand while only the editor's own lines were added:\n%s", tailString(logs.String(), 6000))
	}
}

type probeResult struct{ lost, dup, notesLost, torn int }

// checkProbe counts, in the day file at p, the acknowledged entries and the
// editor's lines ("HH:MM text") missing or there twice, and the entries
// that are none of them (torn).
func checkProbe(t *testing.T, p string, acked, notes []string) probeResult {
	t.Helper()
	content, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	got := texts(t, content)
	var r probeResult
	known := map[string]bool{}
	for _, s := range acked {
		known[s] = true
		switch n := got[s]; {
		case n == 0:
			r.lost++
			t.Errorf("acknowledged entry %q is lost", s)
		case n > 1:
			r.dup++
			t.Errorf("acknowledged entry %q is there %d times", s, n)
		}
	}
	for _, s := range notes {
		known[s] = true
		if got[s] == 0 {
			r.notesLost++
			t.Errorf("the editor's line %q is lost", s)
		}
	}
	for s := range got {
		if !known[s] {
			r.torn++
			t.Errorf("torn or unknown entry %q", s)
		}
	}
	for _, l := range strings.Split(string(content), "\n") {
		if l != "" && !strings.HasPrefix(l, "- ") && !strings.HasPrefix(l, "# ") {
			r.torn++
			t.Errorf("torn line %q", l)
		}
	}
	return r
}

func readTail(p string) string {
	b, _ := os.ReadFile(p)
	return tailString(string(b), 4000)
}

func tailString(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}
