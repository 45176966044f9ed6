package index

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/daybook/daybook/internal/models/offline"
)

// inodeDisk mounts a tmpfs and returns its path, or skips the test when
// this process may not mount (run as root for it).
func inodeDisk(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64m,mode=0755"); err != nil {
		t.Skipf("cannot mount a tmpfs (%v): run as root for the failed-write test", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// limitInodes remounts the tmpfs at dir so that it holds no more files
// than it holds now plus extra: creating a file past that fails with
// ENOSPC, as on a full disk, while the files there can still grow.
func limitInodes(t *testing.T, dir string, extra uint64) {
	t.Helper()
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	used := st.Files - st.Ffree
	if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_REMOUNT, fmt.Sprintf("size=64m,nr_inodes=%d", used+extra)); err != nil {
		t.Fatalf("remounting with %d inodes: %v", used+extra, err)
	}
}

// steadyInodes waits until the count of files on the tmpfs at dir stays
// the same over a few looks: bleve removes the files of old snapshots in
// the background.
func steadyInodes(t *testing.T, dir string) {
	t.Helper()
	used := func() uint64 {
		var st syscall.Statfs_t
		if err := syscall.Statfs(dir, &st); err != nil {
			t.Fatal(err)
		}
		return st.Files - st.Ffree
	}
	deadline := time.Now().Add(10 * time.Second)
	last, same := used(), 0
	for same < 5 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		if n := used(); n == last {
			same++
		} else {
			last, same = n, 0
		}
	}
}

// pathCount returns how many documents bleve holds for the file rel.
func pathCount(t *testing.T, x *Index, rel string) int {
	t.Helper()
	res, err := x.bl.Search(bleve.NewSearchRequestOptions(pathQuery(rel), 1000, 0, false))
	if err != nil {
		t.Fatal(err)
	}
	return len(res.Hits)
}

func dayOf(n int) string {
	var b strings.Builder
	b.WriteString("# 2026-03-14 Saturday\n\n")
	for i := range n {
		fmt.Fprintf(&b, "- %02d:00 entry number %d of the day\n", 8+i, i+1)
	}
	return b.String()
}

// TestFailedBatchRetried: a day file of 3 entries is indexed; it grows to
// 6, and the write of the index fails (no file can be created: a full
// disk). A retry once there is room again indexes the 6, also after the
// index is opened again: the manifest records a file's new stamp only
// once its documents are written.
func TestFailedBatchRetried(t *testing.T) {
	disk := inodeDisk(t)
	root := filepath.Join(disk, "data")
	rel := writeFile(t, root, editDay, dayOf(3))
	x := openTest(t, root, offline.NewEmbedder())
	syncPath(t, x, root, rel)
	if n := pathCount(t, x, rel); n != 3 {
		t.Fatalf("%d documents after the first sync, want 3", n)
	}
	stamp := func() string {
		x.TextIndex.mu.RLock()
		defer x.TextIndex.mu.RUnlock()
		return x.manifest[rel]
	}
	first := stamp()
	// Another day, indexed after the first build, starts the vector log:
	// a file that grows, which a full inode table does not stop.
	other := writeFile(t, root, "2026-03-15", "# 2026-03-15 Sunday\n\n- 09:00 a walk\n")
	syncPath(t, x, root, other)
	if _, err := os.Stat(filepath.Join(root, "index", vecLogName)); err != nil {
		t.Fatalf("no vector log: %v", err)
	}
	writeFile(t, root, editDay, dayOf(6))
	steadyInodes(t, disk)
	limitInodes(t, disk, 0)
	_, err := x.SyncPaths(context.Background(), []string{rel}, DayFiles{Root: root})
	if err == nil {
		t.Fatalf("indexing with no file to create succeeded: the test did not make the write fail")
	}
	t.Logf("the failed write: %v", err)
	if got := stamp(); got != first {
		t.Errorf("after the failed write the manifest says %s was indexed at %q, the stamp of the file not written; want %q", rel, got, first)
	}
	limitInodes(t, disk, 10000)
	if _, err := x.SyncPaths(context.Background(), []string{rel}, DayFiles{Root: root}); err != nil {
		t.Fatalf("the retry: %v", err)
	}
	if n := pathCount(t, x, rel); n != 6 {
		t.Errorf("%d documents after the retry, want 6", n)
	}
	checkIndexed(t, x, rel, docsOf(t, root, editDay))
	x.Close()
	y := openTest(t, root, offline.NewEmbedder())
	if _, err := y.SyncPaths(context.Background(), []string{rel}, DayFiles{Root: root}); err != nil {
		t.Fatal(err)
	}
	if n := pathCount(t, y, rel); n != 6 {
		t.Errorf("%d documents after opening the index again, want 6", n)
	}
}

// TestFailedBatchKeepsTheManifest: a batch that fails, whether it would
// have written the manifest's delta or the full manifest, leaves the
// manifest as it was, in memory and in bleve; opened again, the index
// reads it back, and a Sync indexes the days the failed batches held.
func TestFailedBatchKeepsTheManifest(t *testing.T) {
	ctx := context.Background()
	disk := inodeDisk(t)
	root := filepath.Join(disk, "data")
	rels, x := buildIn(t, root, 200)
	for i, rel := range rels[:3] {
		appendNote(t, root, rel, i)
		if _, err := x.SyncPaths(ctx, []string{rel}, DayFiles{Root: root}); err != nil {
			t.Fatal(err)
		}
	}
	type state struct {
		manifest, delta map[string]string
		base            string
		stale           bool
		full, stored    []byte
	}
	now := func() state {
		x.TextIndex.mu.RLock()
		s := state{manifest: maps.Clone(x.manifest), delta: maps.Clone(x.delta), base: x.base, stale: x.stale}
		x.TextIndex.mu.RUnlock()
		s.full, s.stored = storedKeys(t, x)
		return s
	}
	before := now()
	if len(before.delta) != 3 {
		t.Fatalf("the delta holds %v before the failed writes, want the 3 days written", before.delta)
	}
	// The second batch is one day more than a delta holds, so that it
	// would write the full manifest even if a try of the first one, or of
	// itself, succeeded and emptied the delta.
	batches := [][]string{rels[3:4], rels[3 : 4+deltaMax(len(rels))]}
	for _, batch := range batches {
		// bleve removes the files of old snapshots in the background, and
		// an inode it frees after the limit lets the batch write: then the
		// test did not make the write fail, and tries again from there.
		var err error
		for try := 1; ; try++ {
			steadyInodes(t, disk)
			limitInodes(t, disk, 0)
			before = now()
			for i, rel := range batch {
				appendNote(t, root, rel, 10*try+i)
			}
			if _, err = x.SyncPaths(ctx, batch, DayFiles{Root: root}); err != nil {
				break
			}
			if try == 5 {
				t.Fatalf("indexing %d days with no file to create succeeded %d times: the test did not make the write fail", len(batch), try)
			}
			t.Logf("indexing %d days with no file to create succeeded (try %d): bleve freed files meanwhile; again", len(batch), try)
		}
		t.Logf("the failed write of %d days: %v", len(batch), err)
		after := now()
		if s := diffManifests(after.manifest, before.manifest); s != "" {
			t.Errorf("after a failed write of %d days the manifest changed:%s", len(batch), s)
		}
		if !maps.Equal(after.delta, before.delta) || after.base != before.base || after.stale != before.stale {
			t.Errorf("after a failed write of %d days: delta %v, base %s, stale %v; want %v, %s, %v",
				len(batch), after.delta, after.base, after.stale, before.delta, before.base, before.stale)
		}
		if !bytes.Equal(after.full, before.full) || !bytes.Equal(after.stored, before.stored) {
			t.Errorf("after a failed write of %d days bleve holds another manifest: %d and %d bytes, were %d and %d",
				len(batch), len(after.full), len(after.stored), len(before.full), len(before.stored))
		}
	}
	limitInodes(t, disk, 10000)
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	y := openTest(t, root, offline.NewEmbedder())
	y.TextIndex.mu.RLock()
	reread := maps.Clone(y.manifest)
	y.TextIndex.mu.RUnlock()
	if s := diffManifests(reread, before.manifest); s != "" {
		t.Errorf("opened again, the manifest is not the one before the failed writes:%s", s)
	}
	st, err := y.Sync(ctx, false, DayFiles{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if want := len(batches[1]); st.Changed != want {
		t.Errorf("Sync after the failed writes indexed %d days again, want the %d they held", st.Changed, want)
	}
	y.TextIndex.mu.RLock()
	synced := maps.Clone(y.manifest)
	y.TextIndex.mu.RUnlock()
	if s := diffManifests(synced, listed(t, root)); s != "" {
		t.Errorf("after that Sync the manifest differs from the files:%s", s)
	}
}
