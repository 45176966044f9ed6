package reliability

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles"
)

// smallDisk mounts a tmpfs of size bytes and returns its path, or skips
// the test when this process may not mount.
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "dbfull")
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size+",mode=0755"); err != nil {
		os.RemoveAll(dir)
		t.Skipf("cannot mount a %s tmpfs to fill (%v): run as root, or on a machine that allows it, for the full-disk test", size, err)
	}
	t.Cleanup(func() {
		syscall.Unmount(dir, syscall.MNT_DETACH)
		os.RemoveAll(dir)
	})
	return dir
}

// rigOn returns a rig whose data dir is on the disk mounted at disk.
func rigOn(t *testing.T, disk, config string) *rig {
	t.Helper()
	r := newRig(t, config)
	r.dir = filepath.Join(disk, "data")
	for i, kv := range r.env {
		if strings.HasPrefix(kv, "DAYBOOK_DIR=") {
			r.env[i] = "DAYBOOK_DIR=" + r.dir
		}
	}
	os.MkdirAll(r.dir, 0o755)
	return r
}

// fill writes a filler file until the disk at dir is full and returns its path.
func fill(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "filler")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := bytes.Repeat([]byte{'f'}, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			break
		}
	}
	for range 4096 { // the last bytes of the last page
		if _, err := f.Write([]byte{'f'}); err != nil {
			break
		}
	}
	return p
}

// TestDiskFull fills a 2 MiB tmpfs that holds the data dir while the daemon
// runs and entries keep coming, through the daemon and straight to the
// files. Every write that fails says so and names the file and the cause;
// nothing acknowledged before is damaged or lost, no half entry is left,
// the daemon stays up, and writes work again once space returns.
func TestDiskFull(t *testing.T) {
	disk := smallDisk(t, "2m")
	r := rigOn(t, disk, "")
	d := r.startDaemon()
	acked := map[string]ack{}
	var tried []string
	var failures []string
	remember := func(text string) {
		tried = append(tried, text)
		out, err := r.daybook("remember", text)
		if err != nil {
			failures = append(failures, err.Error())
			return
		}
		acked[text] = parseAck(t, out)
	}
	for i := range 20 {
		remember(fmt.Sprintf("before the disk filled entry %d fulltok%d", i, i))
	}
	filler := fill(t, disk)
	// Entries of growing size until the write fails several times.
	for i := 0; len(failures) < 5 && i < 300; i++ {
		remember(strings.TrimSpace(fmt.Sprintf("while the disk is full entry %d %s", i, strings.Repeat("word ", i%200))))
	}
	if len(failures) == 0 {
		t.Fatalf("no write failed on a full disk")
	}
	for _, f := range failures {
		if !strings.Contains(f, "no space left on device") {
			t.Errorf("a failed write does not say the disk is full: %s", f)
		}
		if !strings.Contains(f, "days/") && !strings.Contains(f, "index") {
			t.Errorf("a failed write does not name the file: %s", f)
		}
	}
	t.Logf("first failed write: %s", failures[0])
	if testing.Verbose() {
		for _, l := range strings.Split(d.logText(), "\n") {
			if strings.Contains(l, "panicked") {
				t.Logf("PANIC %s", l)
				break
			}
		}
	}
	if _, err := r.status(); err != nil {
		t.Fatalf("the daemon went down on a full disk: %v\n%s", err, d.logText())
	}
	checkAcked(t, r.dir, acked, tried)
	checkNoHalfEntries(t, r.dir, tried)

	// Space returns: writes work again, through the daemon.
	os.Remove(filler)
	time.Sleep(100 * time.Millisecond)
	after := "after space returned fulltokback"
	remember(after)
	if _, ok := acked[after]; !ok {
		t.Fatalf("remember after space returned failed: %s\n%s", failures[len(failures)-1], d.logText())
	}
	checkAcked(t, r.dir, acked, tried)
	c := r.client()
	defer c.Close()
	if !recallFinds(t, c, "fulltokback", after, 30*time.Second) {
		var st syscall.Statfs_t
		syscall.Statfs(disk, &st)
		sizes := ""
		filepath.Walk(disk, func(p string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() && fi.Size() > 50<<10 {
				sizes += fmt.Sprintf(" %s=%dKiB", p[len(disk):], fi.Size()>>10)
			}
			return nil
		})
		t.Errorf("recall through the index does not find the entry written after space returned (free %d KiB; big files:%s)\n%s",
			st.Bavail*uint64(st.Bsize)>>10, sizes, tail(d.logText(), 1500))
	}
	d.stop()
	t.Logf("disk full: %d entries acknowledged and intact, %d writes refused with ENOSPC, service resumed", len(acked), len(failures))
}

// checkNoHalfEntries fails when an entry holds a tried text cut short: a
// write that failed part way must leave nothing behind.
func checkNoHalfEntries(t *testing.T, dir string, tried []string) {
	t.Helper()
	full := map[string]bool{}
	for _, s := range tried {
		full[strings.TrimSpace(s)] = true
	}
	for text := range dayEntries(t, dir) {
		if !full[strings.TrimSpace(text)] {
			t.Errorf("the day file holds an entry nobody wrote whole: %.80q", text)
		}
	}
}

// TestReadOnlyDataDir makes the data dir read-only for its owner, a
// non-root uid (root ignores modes): remember fails with an error naming
// the file and "permission denied", and the day file is left as it was.
func TestReadOnlyDataDir(t *testing.T) {
	base, err := os.MkdirTemp("", "dbro")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(base)
	os.Chmod(base, 0o755)
	r := newRig(t, "")
	r.dir = filepath.Join(base, "data")
	for i, kv := range r.env {
		if strings.HasPrefix(kv, "DAYBOOK_DIR=") {
			r.env[i] = "DAYBOOK_DIR=" + r.dir
		}
		if strings.HasPrefix(kv, "HOME=") {
			r.env[i] = "HOME=" + base
		}
	}
	os.MkdirAll(r.dir, 0o755)
	a := parseAck(t, r.must("remember", "written while the dir was writable"))
	day := filepath.Join(r.dir, a.rel)
	// XDG_RUNTIME_DIR and the config home are root's: nobody gets its own.
	run := func(args ...string) (string, error) {
		c := asOtherUser(t, r.bin, args...)
		c.Env = append(append([]string{}, r.env...), "XDG_RUNTIME_DIR=", "XDG_CONFIG_HOME="+base)
		var out, errb bytes.Buffer
		c.Stdout, c.Stderr = &out, &errb
		err := c.Run()
		if err != nil {
			return out.String(), fmt.Errorf("%v: %s", err, errb.String())
		}
		return out.String(), nil
	}
	filepath.Walk(base, func(p string, _ os.FileInfo, _ error) error { return os.Chown(p, nobody, nobody) })
	if _, err := run("remember", "as the owner, writable"); err != nil {
		t.Fatalf("the owner cannot write its own data dir: %v", err)
	}
	before, _ := os.ReadFile(day)
	// Read-only: the day file, its folders and the data dir.
	filepath.Walk(r.dir, func(p string, fi os.FileInfo, _ error) error {
		if fi.IsDir() {
			return os.Chmod(p, 0o555)
		}
		return os.Chmod(p, 0o444)
	})
	defer filepath.Walk(r.dir, func(p string, fi os.FileInfo, _ error) error { return os.Chmod(p, 0o755) })
	for _, args := range [][]string{
		{"remember", "into a read-only day"},
		{"remember", "--at", "2020-01-01 10:00", "into a read-only folder"},
	} {
		_, err := run(args...)
		if err == nil {
			t.Errorf("daybook %s succeeded on a read-only data dir", strings.Join(args, " "))
			continue
		}
		if !strings.Contains(err.Error(), "permission denied") || !strings.Contains(err.Error(), "days/") {
			t.Errorf("daybook %s: %v, want an error naming the file and permission denied", strings.Join(args, " "), err)
		}
		t.Logf("read-only: %s", strings.TrimSpace(err.Error()))
	}
	if after, _ := os.ReadFile(day); !bytes.Equal(before, after) {
		t.Errorf("the day file changed on a read-only data dir")
	}
	// Reading still works.
	d, _ := dayfiles.DateOfRel(a.rel)
	if out, err := run("day", d.String()); err != nil || !strings.Contains(out, "written while the dir was writable") {
		t.Errorf("reading a read-only data dir: %v %s", err, out)
	}
}

// TestDiskFullThenStaleSave: the disk that holds the data dir fills while
// entries keep coming through the daemon; an editor's buffer, read before
// the disk filled, is saved over the day file once space returns. Every
// entry remember acknowledged, before, during or after, is in the day
// file once: an append is acknowledged only once the merge base that
// guards it against a stale copy holds it.
func TestDiskFullThenStaleSave(t *testing.T) {
	disk := smallDisk(t, "8m")
	r := rigOn(t, disk, mergeConfig)
	d := r.startDaemon()
	want := map[string]int{}
	refused := 0
	remember := func(hhmm, text string) {
		if _, err := r.daybook("remember", "--at", mergeDay+" "+hhmm, text); err != nil {
			refused++
			if !strings.Contains(err.Error(), "no space left on device") {
				t.Errorf("a refused remember does not say the disk is full: %v", err)
			}
			return
		}
		want[text] = 1
	}
	for i := range 10 {
		remember(fmt.Sprintf("06:%02d", i), fmt.Sprintf("before the disk filled %d", i))
	}
	stale := readFile(t, r.dayFile())
	filler := fill(t, disk)
	duringBefore := len(want)
	for i := range 40 {
		remember(fmt.Sprintf("07:%02d", i), fmt.Sprintf("while full %d", i))
	}
	during := len(want) - duringBefore
	os.Remove(filler)
	for i := range 5 {
		remember(fmt.Sprintf("08:%02d", i), fmt.Sprintf("after space returned %d", i))
	}
	saveByRename(t, r.dayFile(), stale+"- 09:30 typed in the stale buffer\n")
	want["typed in the stale buffer"] = 1
	r.barrier(1)
	want["barrier 1"] = 1
	c := tally(t, r.dir, want)
	t.Logf("disk full, then a stale save: %d acknowledged (%d while the disk was full), %d refused, %d lost, %d doubled",
		c.acknowledged, during, refused, c.lost, c.duplicated)
	if c.lost+c.duplicated > 0 {
		t.Logf("%s\n%s", readFile(t, r.dayFile()), tail(d.logText(), 3000))
	}
}
