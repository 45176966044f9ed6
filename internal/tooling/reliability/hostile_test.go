package reliability

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// hostileDir writes day files a person, a sync tool or an attacker could
// leave in a data dir, beside ordinary days, and returns the folder outside
// the data dir that symbolic links point into.
func hostileDir(t *testing.T, r *rig) string {
	t.Helper()
	corpus(t, r.dir, date.MustParse("2025-01-10"), 10, 5, "calm")
	write := func(day string, data []byte) {
		p := dayfiles.Path(r.dir, date.MustParse(day))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A 1 MB line of words, and an entry of one 1 MB word.
	write("2025-01-01", []byte("# 2025-01-01 Wednesday\n\n- 09:00 "+strings.Repeat("lorem ipsum ", 1<<20/12)+"hugeline\n- 10:00 "+strings.Repeat("x", 1<<20)+"\n- 11:00 after the huge ones survivestoken\n"))
	// Binary garbage.
	garbage := make([]byte, 64<<10)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range garbage {
		garbage[i] = byte(rng.UintN(256))
	}
	write("2025-01-02", garbage)
	// A million tiny entries: about 10 MB, over the 8 MiB limit.
	write("2025-01-04", bytes.Repeat([]byte("- 09:00 a\n"), 1_000_000))
	// Symbolic links out of the data dir: a day file and a month folder.
	outside := filepath.Join(filepath.Dir(r.dir), "outside")
	os.MkdirAll(filepath.Join(outside, "month"), 0o755)
	secret := []byte("# outside\n\n- 09:00 outsidesecret must not be read\n")
	os.WriteFile(filepath.Join(outside, "secret.md"), secret, 0o644)
	os.WriteFile(filepath.Join(outside, "month", "01.md"), []byte("- 09:00 outsidemonth must not be read\n"), 0o644)
	if err := os.Symlink(filepath.Join(outside, "secret.md"), dayfiles.Path(r.dir, date.MustParse("2025-01-03"))); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "month"), filepath.Join(r.dir, "days", "2025", "02")); err != nil {
		t.Fatal(err)
	}
	return outside
}

// TestHostileDayFiles puts huge lines, garbage, an oversized day and
// symbolic links out of the data dir beside ordinary days. Reading a bad day
// is an error naming the file and what is wrong; consolidation and the index
// skip it and do the rest; the daemon stays up; nothing outside the data dir
// is read or written.
func TestHostileDayFiles(t *testing.T) {
	r := newRig(t, "")
	outside := hostileDir(t, r)
	before := snapshot(t, outside)

	for _, c := range []struct{ day, want string }{
		{"2025-01-02", "not UTF-8"},
		{"2025-01-04", "8 MiB"},
	} {
		_, err := r.daybook("day", c.day)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), strings.ReplaceAll(c.day[:7], "-", "/")) {
			t.Errorf("daybook day %s: got %v, want an error naming the file and %q", c.day, err, c.want)
		}
	}
	if out, _ := r.daybook("day", "2025-01-01"); !strings.Contains(out, "survivestoken") {
		t.Errorf("the day with 1 MB lines does not show its last entry")
	}
	out, err := r.daybook("day", "2025-01-03")
	if strings.Contains(out, "outsidesecret") {
		t.Errorf("daybook day read a day file that is a link out of the data dir:\n%s", out)
	}
	t.Logf("day on a link out of the data dir: %v", err)

	out, err = r.daybook("consolidate")
	t.Logf("consolidate over the hostile days: %v\n%s", err, out)
	for _, day := range []string{"2025/01/02", "2025/01/04"} {
		if err == nil && !strings.Contains(out, day) {
			t.Errorf("consolidate does not name the bad day %s", day)
		}
	}
	if _, serr := os.Stat(filepath.Join(r.dir, "summaries", "2025", "01", "15.md")); serr != nil {
		t.Errorf("consolidate did not write the ordinary days' summaries: %v", serr)
	}
	if out, err := r.daybook("reindex"); err != nil {
		t.Errorf("reindex over the hostile days: %v", err)
	} else {
		t.Logf("reindex: %s", strings.TrimSpace(out))
	}
	for _, q := range []string{"outsidesecret", "outsidemonth"} {
		if out, _ := r.daybook("find", q); strings.Contains(out, q) {
			t.Errorf("find followed a link out of the data dir: %s", out)
		}
	}

	d := r.startDaemon()
	for _, q := range []string{"outsidesecret", "outsidemonth"} {
		if out, _ := r.daybook("recall", q); strings.Contains(out, q) {
			t.Errorf("recall followed a link out of the data dir: %s", out)
		}
	}
	start := time.Now()
	for {
		out, err := r.daybook("recall", "survivestoken")
		if strings.Contains(out, "survivestoken") {
			break
		}
		if time.Since(start) > 30*time.Second {
			t.Errorf("recall does not find the entry after the 1 MB lines: %v %s", err, out)
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("recall found the entry after the 1 MB lines %v after the daemon answered", time.Since(start).Round(time.Millisecond))
	// Writes to the linked day and month go nowhere outside.
	r.daybook("remember", "--at", "2025-01-03 12:00", "written to a linked day")
	r.daybook("remember", "--at", "2025-02-01 12:00", "written to a linked month")
	r.must("remember", "an ordinary entry after all that")
	if _, err := r.status(); err != nil {
		t.Fatalf("the daemon went down: %v\n%s", err, d.logText())
	}
	d.stop()
	if after := snapshot(t, outside); after != before {
		t.Errorf("files outside the data dir changed:\nbefore %s\nafter  %s", before, after)
	}
	if strings.Contains(d.logText(), "panic") {
		t.Errorf("the daemon's log holds a panic:\n%s", d.logText())
	}
}

// snapshot returns every file under dir with its content, as one string.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			data, _ := os.ReadFile(p)
			b.WriteString(p + "=" + string(data) + ";")
		}
		return nil
	})
	return b.String()
}
