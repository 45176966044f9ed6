package reliability

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles"
)

// The tests of this file are the scenarios of issue 20: a person's edits,
// stale editor buffers and synced copies of day files, against a running
// daemon (and across a restart of it), counted as acknowledged entries
// lost, deleted entries resurrected and entries duplicated. RELIABILITY.md
// has their table.

const mergeDay = "2026-11-24"

func (r *rig) dayFile() string { return dayfiles.Path(r.dir, mustDate(mergeDay)) }

// remember appends text at HH:MM of mergeDay through the CLI (the daemon,
// when one runs).
func (r *rig) rememberAt(hhmm, text string) {
	r.t.Helper()
	r.must("remember", "--at", mergeDay+" "+hhmm, text)
}

// mergeConfig redoes an edited day's summary soon after the edit.
const mergeConfig = "consolidate:\n  debounce: 200ms\n"

// barrier waits until the daemon has taken in the changes made to
// mergeDay's file before it, then remembers a marker entry there. It
// appends a line by hand to the day before and waits for that day's
// summary to show it: the watcher reports days in the order of their
// changes, merging each report (in the old code, restoring "vanished"
// entries) before the summaries of its days are redone, so by then the
// earlier change of mergeDay was handled. The remember then merges, under
// the day file's lock, anything still unmerged.
func (r *rig) barrier(n int) {
	r.t.Helper()
	marker := fmt.Sprintf("zebra marker %d seen", n)
	p := dayfiles.Path(r.dir, mustDate("2026-11-23"))
	os.MkdirAll(filepath.Dir(p), 0o755)
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		r.t.Fatal(err)
	}
	fmt.Fprintf(f, "- 12:%02d %s\n", n%60, marker)
	f.Close()
	waitText(r.t, filepath.Join(r.dir, "summaries", "2026", "11", "23.md"), marker)
	r.rememberAt("23:59", fmt.Sprintf("barrier %d", n))
}

func readFile(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// saveByRename replaces p as vim, Syncthing and rsync do: a new file written
// beside it and renamed over it.
func saveByRename(t testing.TB, p, content string) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(p), "."+filepath.Base(p)+".tmp")
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
}

// counts tallies, for the texts of want, how often each is in the data dir:
// lost are acknowledged texts (want 1) found 0 times, duplicated those found
// more than once, resurrected deleted texts (want 0) found again.
type counts struct{ acknowledged, lost, resurrected, duplicated int }

func tally(t testing.TB, dir string, want map[string]int) counts {
	t.Helper()
	have := dayEntries(t, dir)
	var c counts
	for text, n := range want {
		got := have[text]
		switch {
		case n == 1:
			c.acknowledged++
			if got == 0 {
				c.lost++
				t.Errorf("acknowledged entry %q is lost", text)
			}
			if got > 1 {
				c.duplicated++
				t.Errorf("entry %q is there %d times", text, got)
			}
		case n == 0 && got > 0:
			c.resurrected++
			t.Errorf("deleted entry %q is back (%d times)", text, got)
		}
	}
	t.Logf("%s: %d acknowledged, %d lost, %d resurrected, %d duplicated", t.Name(), c.acknowledged, c.lost, c.resurrected, c.duplicated)
	return c
}

// waitText waits until the day file holds s.
func waitText(t testing.TB, p, s string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, _ := os.ReadFile(p)
		if strings.Contains(string(b), s) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never held %q:\n%s", p, s, b)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestStaleBufferWithSimilarLine: an editor's buffer read before an
// acknowledged entry is saved over the file with a new line of the same
// minute that shares half its words. The acknowledged entry comes back,
// once; with a daemon restart between the steps too.
func TestStaleBufferWithSimilarLine(t *testing.T) {
	for _, restart := range []string{"none", "between append and save", "daemon down during save"} {
		t.Run(restart, func(t *testing.T) {
			r := newRig(t, mergeConfig)
			d := r.startDaemon()
			r.rememberAt("09:00", "Morning standup")
			stale := readFile(t, r.dayFile())
			r.rememberAt("09:05", "Deploy of api v2.3 finished, all green")
			switch restart {
			case "between append and save":
				d.stop()
				d = r.startDaemon()
			case "daemon down during save":
				d.stop()
			}
			saveByRename(t, r.dayFile(), stale+"- 09:05 Deploy of api v2.3 started\n")
			if restart == "daemon down during save" {
				d = r.startDaemon()
			}
			waitText(t, r.dayFile(), "finished, all green")
			r.barrier(1)
			c := tally(t, r.dir, map[string]int{"Morning standup": 1, "Deploy of api v2.3 finished, all green": 1,
				"Deploy of api v2.3 started": 1, "barrier 1": 1})
			if c.lost+c.duplicated+c.resurrected > 0 {
				t.Logf("%s\n%s", readFile(t, r.dayFile()), d.logText())
			}
			if !strings.Contains(d.logText(), "appending it again") {
				t.Errorf("no WARN names the entry appended again:\n%s", d.logText())
			}
			st, err := r.status()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(strings.Join(st.Merge, "\n"), "finished, all green") {
				t.Errorf("status does not name the entry appended again: %q", st.Merge)
			}
		})
	}
}

// twenty remembers 20 entries, 04:40 to 04:59 plus 09:20 onwards, and
// returns their texts.
func (r *rig) twenty() []string {
	var texts []string
	for i := range 20 {
		text := fmt.Sprintf("entry number %d about the garden", i+1)
		r.rememberAt(fmt.Sprintf("04:%02d", 40+i), text)
		texts = append(texts, text)
	}
	return texts
}

// without returns content without the entry lines holding any of texts.
func without(content string, texts ...string) string {
	var out []string
	for _, l := range strings.SplitAfter(content, "\n") {
		drop := false
		for _, t := range texts {
			if strings.HasSuffix(strings.TrimRight(l, "\n"), " "+t) {
				drop = true
			}
		}
		if !drop {
			out = append(out, l)
		}
	}
	return strings.Join(out, "")
}

// TestHandDeletionsAndEditsStick: entries removed by hand, in place and by
// a rename save, stay removed; an entry moved to another time or
// rewritten stays as edited, without the original beside it; a daemon
// restart between the steps changes nothing.
func TestHandDeletionsAndEditsStick(t *testing.T) {
	r := newRig(t, mergeConfig)
	d := r.startDaemon()
	texts := r.twenty()
	want := map[string]int{}
	for _, text := range texts {
		want[text] = 1
	}
	del := func(n ...int) []string {
		var out []string
		for _, i := range n {
			out = append(out, texts[i-1])
			want[texts[i-1]] = 0
		}
		return out
	}
	// In place, as an editor that rewrites the file does.
	if err := os.WriteFile(r.dayFile(), []byte(without(readFile(t, r.dayFile()), del(2, 5, 8, 11, 14)...)), 0o644); err != nil {
		t.Fatal(err)
	}
	r.barrier(1)
	want["barrier 1"] = 1
	tally(t, r.dir, want)

	d.stop()
	d = r.startDaemon()
	// By rename, as vim does, after the restart.
	saveByRename(t, r.dayFile(), without(readFile(t, r.dayFile()), del(3, 6, 9)...))
	r.barrier(2)
	want["barrier 2"] = 1
	tally(t, r.dir, want)

	// Edits: entry 16 moved from 04:55 to 09:15, entry 17 rewritten.
	content := readFile(t, r.dayFile())
	content = strings.Replace(content, "- 04:55 "+texts[15], "- 09:15 "+texts[15], 1)
	content = strings.Replace(content, texts[16], "the pond froze overnight, fish fine", 1)
	want[texts[16]] = 0
	want["the pond froze overnight, fish fine"] = 1
	saveByRename(t, r.dayFile(), content)
	r.barrier(3)
	want["barrier 3"] = 1
	c := tally(t, r.dir, want)
	if !strings.Contains(readFile(t, r.dayFile()), "- 09:15 "+texts[15]) || strings.Contains(readFile(t, r.dayFile()), "- 04:55 ") {
		t.Errorf("the moved entry is not at 09:15 alone:\n%s", readFile(t, r.dayFile()))
	}
	if c.resurrected+c.lost+c.duplicated > 0 {
		t.Log(d.logText())
	}
}

// TestTruncatePauseWriteSave: an editor that truncates the file, pauses,
// then writes its buffer, in which an entry was deleted; the merge must
// not fill the briefly empty file, nor undo the deletion.
func TestTruncatePauseWriteSave(t *testing.T) {
	r := newRig(t, mergeConfig)
	d := r.startDaemon()
	texts := r.twenty()
	want := map[string]int{}
	for _, text := range texts {
		want[text] = 1
	}
	// The person's buffer drops entry 4.
	content := without(readFile(t, r.dayFile()), texts[3])
	want[texts[3]] = 0
	f, err := os.OpenFile(r.dayFile(), os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The pause is the scenario (a slow editor), not a wait for a result:
	// the watcher's debounce runs out while the file is empty.
	time.Sleep(600 * time.Millisecond)
	if _, err := f.WriteString(content); err != nil {
		t.Fatal(err)
	}
	f.Close()
	r.barrier(1)
	want["barrier 1"] = 1
	c := tally(t, r.dir, want)
	if c.duplicated > 0 {
		t.Logf("%s\n%s", readFile(t, r.dayFile()), d.logText())
	}
}

// syncFile copies src's day file onto dst's by temp file and rename, as
// Syncthing does.
func syncFile(t testing.TB, src, dst *rig) {
	t.Helper()
	saveByRename(t, dst.dayFile(), readFile(t, src.dayFile()))
}

// TestTwoSyncedDataDirs: data dirs A and B, a daemon on each, append to
// the same day; B's file replaces A's by rename, then A's B's. Every
// entry ends up on both once, and a deletion made on B of an entry both
// had stays deleted.
func TestTwoSyncedDataDirs(t *testing.T) {
	for _, similar := range []bool{true, false} {
		t.Run(fmt.Sprintf("similar=%v", similar), func(t *testing.T) {
			a, b := newRig(t, mergeConfig), newRig(t, mergeConfig)
			shared := "# 2026-11-24 Tuesday\n\n- 08:00 shared one\n- 08:01 shared two\n"
			for _, r := range []*rig{a, b} {
				os.MkdirAll(filepath.Dir(r.dayFile()), 0o755)
				if err := os.WriteFile(r.dayFile(), []byte(shared), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			da, db := a.startDaemon(), b.startDaemon()
			want := map[string]int{"shared one": 1, "shared two": 0}
			for i := range 4 {
				ta, tb := fmt.Sprintf("from machine A number %d", i+1), fmt.Sprintf("from machine B number %d", i+1)
				if !similar {
					ta, tb = fmt.Sprintf("apples %d on the laptop", i+1), fmt.Sprintf("dentist call %d from the desk", i+1)
				}
				a.rememberAt(fmt.Sprintf("10:0%d", i), ta)
				b.rememberAt(fmt.Sprintf("10:0%d", i), tb)
				want[ta], want[tb] = 1, 1
			}
			// A person on B deletes a shared entry.
			saveByRename(t, b.dayFile(), without(readFile(t, b.dayFile()), "shared two"))
			b.barrier(1)
			syncFile(t, b, a)
			if similar {
				waitText(t, a.dayFile(), "from machine A number 4")
			} else {
				waitText(t, a.dayFile(), "apples 4 on the laptop")
			}
			a.barrier(2)
			syncFile(t, a, b)
			b.barrier(3)
			want["barrier 1"], want["barrier 2"], want["barrier 3"] = 1, 1, 1
			ca := tally(t, a.dir, map[string]int{"shared two": 0})
			cb := tally(t, b.dir, want)
			if ca.resurrected+cb.lost+cb.duplicated+cb.resurrected > 0 {
				t.Logf("A:\n%s\n%s\nB:\n%s\n%s", readFile(t, a.dayFile()), da.logText(), readFile(t, b.dayFile()), db.logText())
			}
			syncFile(t, b, a)
			a.barrier(4)
			want["barrier 4"] = 1
			tally(t, a.dir, want)
		})
	}
}

// TestSyncthingConflictCopy: a conflict copy beside a day file is merged
// into it and moved out of days/, whether it comes while the daemon runs or
// while none does; doctor reports a copy left.
func TestSyncthingConflictCopy(t *testing.T) {
	r := newRig(t, mergeConfig)
	d := r.startDaemon()
	r.rememberAt("09:00", "written on this machine")
	other := "# 2026-11-24 Tuesday\n\n- 09:00 written on this machine\n- 09:30 written on the other machine\n"
	cp := filepath.Join(filepath.Dir(r.dayFile()), "24.sync-conflict-20261124-101500-ABCDEFG.md")
	if err := os.WriteFile(cp, []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	waitText(t, r.dayFile(), "written on the other machine")
	deadline := time.Now().Add(30 * time.Second)
	for _, err := os.Stat(cp); err == nil; _, err = os.Stat(cp) {
		if time.Now().After(deadline) {
			t.Fatalf("the conflict copy is still in days/")
		}
		time.Sleep(20 * time.Millisecond)
	}
	d.stop()

	// A copy that comes while no daemon runs: doctor tells, the daemon merges it.
	cp2 := filepath.Join(filepath.Dir(r.dayFile()), "24 (conflicted copy 2026-11-24 101500).md")
	if err := os.WriteFile(cp2, []byte(other+"- 11:00 from a Nextcloud copy\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := r.daybook("doctor")
	if !strings.Contains(out, "conflict copy") {
		t.Errorf("doctor does not report the conflict copy:\n%s", out)
	}
	d = r.startDaemon()
	waitText(t, r.dayFile(), "from a Nextcloud copy")
	r.barrier(1)
	tally(t, r.dir, map[string]int{"written on this machine": 1, "written on the other machine": 1, "from a Nextcloud copy": 1, "barrier 1": 1})
	d.stop()
	out, _ = r.daybook("doctor")
	if strings.Contains(out, "conflict copy") {
		t.Errorf("doctor still reports a conflict copy:\n%s", out)
	}
}

// stalledSave writes content over p as an editor that stalls mid-write:
// truncate, write the first part (cut inside a line), pause, write the
// rest, through one descriptor (the second write lands at the editor's
// own offset, over whatever was appended to the file meanwhile).
func stalledSave(t testing.TB, p, content string, pause time.Duration) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cut := len(content) / 2
	if _, err := f.WriteString(content[:cut]); err != nil {
		t.Fatal(err)
	}
	// The pause is the scenario (an editor that stalls), not a wait for a
	// result: the watcher's debounce runs out while the file is half written.
	time.Sleep(pause)
	if _, err := f.WriteString(content[cut:]); err != nil {
		t.Fatal(err)
	}
}

// TestEditorStallsMidWrite: an editor saves the day file, with a line the
// person added, in two writes with a pause of 0.2 to 0.6 s between them,
// while the daemon watches. The half file looks like a stale copy that
// dropped the entries of its second half: they must not be appended again
// into it, where the editor's second write lands over them. Every
// acknowledged entry is there once, and no line is torn.
func TestEditorStallsMidWrite(t *testing.T) {
	r := newRig(t, mergeConfig)
	d := r.startDaemon()
	want := map[string]int{}
	tried := r.twenty()
	for _, text := range tried {
		want[text] = 1
	}
	for i, pause := range []time.Duration{200 * time.Millisecond, 400 * time.Millisecond, 600 * time.Millisecond, 300 * time.Millisecond} {
		note := fmt.Sprintf("typed in the editor before save %d", i+1)
		want[note] = 1
		tried = append(tried, note)
		// The person's line goes under the title: the second write is
		// then as long as what the half file lacks, and what was appended
		// meanwhile, longer (a separator, the cut line whole), sticks out.
		cur := readFile(t, r.dayFile())
		title, rest, _ := strings.Cut(cur, "\n\n")
		content := title + "\n\n" + fmt.Sprintf("- 00:%02d %s\n", 10+i, note) + rest
		stalledSave(t, r.dayFile(), content, pause)
		text := fmt.Sprintf("remembered after stalled save %d", i+1)
		r.rememberAt(fmt.Sprintf("05:%02d", i), text)
		want[text] = 1
		tried = append(tried, text)
	}
	r.barrier(1)
	want["barrier 1"] = 1
	tried = append(tried, "barrier 1")
	c := tally(t, r.dir, want)
	checkNoHalfEntries(t, r.dir, append(tried, "zebra marker 1 seen"))
	if c.lost+c.duplicated > 0 {
		t.Logf("%s\n%s", readFile(t, r.dayFile()), tail(d.logText(), 3000))
	}
}

// TestEditorStallProbe is issue 34's editor against the daemon, at its real
// durations: every 1.3–3 s it reads the day file, adds a line, and saves in
// place through one descriptor in two writes cut inside a line, stalling
// 0.3–0.6 s between them, while `remember` runs in a loop (CLI processes
// through the daemon, whose watcher merges every change). Every entry
// remember acknowledged and every line the editor added is in the day file
// once at the end, no line is torn, and nothing was taken for a deletion
// by hand.
func TestEditorStallProbe(t *testing.T) {
	runFor := 20 * time.Second
	if *long {
		runFor = 90 * time.Second
	}
	for run := range runs(1, 4) {
		t.Run(fmt.Sprint(run), func(t *testing.T) {
			r := newRig(t, mergeConfig)
			d := r.startDaemon()
			rng := newRand(t)
			want := map[string]int{}
			for _, text := range r.twenty() {
				want[text] = 1
			}
			tried := []string{"zebra marker 1 seen"}
			for text := range want {
				tried = append(tried, text)
			}
			var (
				stop  = make(chan struct{})
				done  = make(chan struct{})
				acked []string
				tries int
			)
			go func() {
				defer close(done)
				for n := 0; ; n++ {
					select {
					case <-stop:
						return
					default:
					}
					text := fmt.Sprintf("remembered in the loop number %d", n)
					tries++
					if _, err := r.daybook("remember", "--at", mergeDay+" 06:00", text); err == nil {
						acked = append(acked, text)
					}
				}
			}()
			saves := 0
			var notes []string
			for start := time.Now(); time.Since(start) < runFor; {
				saves++
				note := fmt.Sprintf("typed in the editor before save %d", saves)
				notes = append(notes, note)
				cur := readFile(t, r.dayFile())
				content := cur + fmt.Sprintf("- 00:%02d %s\n", saves%60, note)
				if rng.IntN(2) == 0 {
					title, rest, _ := strings.Cut(cur, "\n\n")
					content = title + "\n\n" + fmt.Sprintf("- 00:%02d %s\n", saves%60, note) + rest
				}
				cut := len(content) / 2
				for range 50 {
					c := 1 + rng.IntN(len(content)-1)
					if content[c-1] != '\n' && content[c] != '\n' {
						cut = c
						break
					}
				}
				stalledSaveAt(t, r.dayFile(), content, cut, 300*time.Millisecond+time.Duration(rng.IntN(300))*time.Millisecond)
				// The pause between saves is the scenario, not a wait for a result.
				time.Sleep(1300*time.Millisecond + time.Duration(rng.IntN(1700))*time.Millisecond)
			}
			close(stop)
			<-done
			r.barrier(1)
			want["barrier 1"] = 1
			for _, s := range acked {
				want[s] = 1
			}
			for _, s := range notes {
				want[s] = 1
			}
			tried = append(append(append(tried, "barrier 1"), notes...), acked...)
			for n := range tries {
				tried = append(tried, fmt.Sprintf("remembered in the loop number %d", n)) // refused ones may be there: not torn
			}
			c := tally(t, r.dir, want)
			torn := 0
			all := map[string]bool{}
			for _, s := range tried {
				all[s] = true
			}
			for text := range dayEntries(t, r.dir) {
				if !all[strings.TrimSpace(text)] {
					torn++
					t.Errorf("torn entry %.80q", text)
				}
			}
			byHand := strings.Count(d.logText(), "removed or changed by hand")
			t.Logf("probe: %d saves, %d remembers tried, %d acknowledged, %d lost, %d duplicated, %d torn, %d editor lines; %d taken for deletions by hand",
				saves, tries, c.acknowledged, c.lost, c.duplicated, torn, len(notes), byHand)
			if byHand > 0 {
				t.Errorf("entries were taken for deletions by hand")
			}
			if c.lost+c.duplicated+torn > 0 {
				t.Logf("%s\n%s", tail(readFile(t, r.dayFile()), 3000), tail(d.logText(), 3000))
			}
		})
	}
}

// stalledSaveAt is stalledSave with the cut given.
func stalledSaveAt(t testing.TB, p, content string, cut int, pause time.Duration) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(content[:cut]); err != nil {
		t.Fatal(err)
	}
	time.Sleep(pause) // the stall is the scenario
	if _, err := f.WriteString(content[cut:]); err != nil {
		t.Fatal(err)
	}
}
