package index

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/blevesearch/bleve/v2"

	"github.com/daybook/daybook/internal/models/offline"
)

// storedKeys returns what bleve holds under the manifest's two keys.
func storedKeys(t *testing.T, x *Index) (full, delta []byte) {
	t.Helper()
	full, err := x.bl.GetInternal([]byte(manifestKey))
	if err != nil {
		t.Fatal(err)
	}
	delta, err = x.bl.GetInternal([]byte(deltaKey))
	if err != nil {
		t.Fatal(err)
	}
	return full, delta
}

// manifestOf returns a copy of x's manifest, with its lock.
func manifestOf(x *Index) map[string]string {
	x.TextIndex.mu.RLock()
	defer x.TextIndex.mu.RUnlock()
	return maps.Clone(x.manifest)
}

// listed returns the stamps of the day files under root, as Sync sees them.
func listed(t *testing.T, root string) map[string]string {
	t.Helper()
	ls, err := DayFiles{Root: root}.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	m := make(map[string]string, len(ls))
	for _, s := range ls {
		m[s.Path] = s.Stamp
	}
	return m
}

// diffManifests describes how got differs from want, or "".
func diffManifests(got, want map[string]string) string {
	var b bytes.Buffer
	n := 0
	for p, w := range want {
		if g, ok := got[p]; g != w && n < 5 {
			n++
			b.WriteString("\n  " + p + ": have " + g + " (" + map[bool]string{true: "present", false: "missing"}[ok] + "), want " + w)
		}
	}
	for p, g := range got {
		if _, ok := want[p]; !ok && n < 5 {
			n++
			b.WriteString("\n  " + p + ": have " + g + ", want none")
		}
	}
	if len(got) != len(want) {
		b.WriteString("\n  sizes differ")
	}
	return b.String()
}

// TestManifestDeltaRoundTrip: after a build of 3,000 days, one-day writes
// (appends to one day, to a few others, a day removed) go to the delta,
// not the full manifest; opened again, the manifest is what was written,
// which is the stamps on disk, and Sync finds nothing to do.
func TestManifestDeltaRoundTrip(t *testing.T) {
	ctx := context.Background()
	root, rels, x := builtCorpus(t, 3000)
	built, delta := storedKeys(t, x)
	if len(built) == 0 || len(delta) != 0 {
		t.Fatalf("after the build: a full manifest of %d bytes and a delta of %d, want one and none", len(built), len(delta))
	}
	write := func(rel string) {
		t.Helper()
		if _, err := x.SyncPaths(ctx, []string{rel}, DayFiles{Root: root}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 10 {
		appendNote(t, root, rels[len(rels)-1], i)
		write(rels[len(rels)-1])
	}
	for i, rel := range rels[:5] {
		appendNote(t, root, rel, 100+i)
		write(rel)
	}
	gone := rels[10]
	if err := os.Remove(filepath.Join(root, filepath.FromSlash(gone))); err != nil {
		t.Fatal(err)
	}
	write(gone)

	full, delta := storedKeys(t, x)
	if !bytes.Equal(full, built) {
		t.Errorf("16 one-day writes rewrote the full manifest (%d bytes, %d after the build)", len(full), len(built))
	}
	var d manifestDelta
	if err := json.Unmarshal(delta, &d); err != nil {
		t.Fatalf("the delta stored: %v (%q)", err, delta)
	}
	if len(d.Paths) != 7 || d.Paths[gone] != "" {
		t.Errorf("the delta holds %v, want the 7 days written, %s as removed", d.Paths, gone)
	}
	wrote := manifestOf(x)
	onDisk := listed(t, root)
	if s := diffManifests(wrote, onDisk); s != "" {
		t.Errorf("the manifest in memory differs from the files:%s", s)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}

	y := openTest(t, root, offline.NewEmbedder())
	if s := diffManifests(manifestOf(y), wrote); s != "" {
		t.Errorf("the manifest read back differs from the one written:%s", s)
	}
	st, err := y.Sync(ctx, false, DayFiles{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if st.Changed != 0 || st.Removed != 0 {
		t.Errorf("Sync after opening again: %+v, want nothing changed or removed", st)
	}
}

// TestOldReaderOfANewIndex: an earlier daybook reads the full manifest
// alone. Every source it sees at a stamp other than the file's was
// written since, so its Sync diffs those against bleve and writes
// nothing; and once it has written its own full manifest, the delta it
// left is not applied over that one.
func TestOldReaderOfANewIndex(t *testing.T) {
	ctx := context.Background()
	root, rels, x := builtCorpus(t, 300)
	for i, rel := range rels[:20] {
		appendNote(t, root, rel, i)
		if _, err := x.SyncPaths(ctx, []string{rel}, DayFiles{Root: root}); err != nil {
			t.Fatal(err)
		}
	}
	_, delta := storedKeys(t, x)
	if len(delta) == 0 {
		t.Fatal("no delta stored after 20 one-day writes")
	}
	x.Close()

	// What an earlier daybook sees: the full key, without the delta.
	path := filepath.Join(root, "index", bleveDir)
	bl, err := bleve.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := bl.GetInternal([]byte(manifestKey))
	if err != nil {
		t.Fatal(err)
	}
	old := map[string]string{}
	if err := json.Unmarshal(raw, &old); err != nil {
		t.Fatal(err)
	}
	if err := bl.DeleteInternal([]byte(deltaKey)); err != nil {
		t.Fatal(err)
	}
	bl.Close()
	stale := 0
	for p, s := range listed(t, root) {
		if old[p] != s {
			stale++
		}
	}
	if stale != 20 {
		t.Errorf("the full manifest alone is stale at %d days, want the 20 written", stale)
	}
	y := openTest(t, root, offline.NewEmbedder())
	from := logEnd(y)
	docs, err := y.bl.DocCount()
	if err != nil {
		t.Fatal(err)
	}
	st, err := y.Sync(ctx, false, DayFiles{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if st.Changed != 20 {
		t.Errorf("Sync on the full manifest alone read %d files again, want the 20 it is stale at", st.Changed)
	}
	if puts, dels := logOps(t, y, from); len(puts)+len(dels) != 0 {
		t.Errorf("Sync on the full manifest alone wrote vectors %v and deleted %v: the documents were current", puts, dels)
	}
	if n, _ := y.bl.DocCount(); n != docs {
		t.Errorf("%d documents after that Sync, %d before", n, docs)
	}
	for _, rel := range rels[:20] {
		if n := pathCount(t, y, rel); n != 2 {
			t.Errorf("%s has %d documents, want 2", rel, n)
		}
	}
	y.Close()

	// An earlier daybook that writes its full manifest over a delta of this
	// one: the delta no longer applies.
	z := openTest(t, root, offline.NewEmbedder())
	appendNote(t, root, rels[0], 99)
	if _, err := z.SyncPaths(ctx, []string{rels[0]}, DayFiles{Root: root}); err != nil {
		t.Fatal(err)
	}
	z.Close()
	bl, err = bleve.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	theirs := listed(t, root)
	theirs[rels[0]] = "written-by-an-earlier-daybook"
	raw, _ = json.Marshal(theirs)
	if err := bl.SetInternal([]byte(manifestKey), raw); err != nil {
		t.Fatal(err)
	}
	bl.Close()
	w := openTest(t, root, offline.NewEmbedder())
	if got := manifestOf(w)[rels[0]]; got != "written-by-an-earlier-daybook" {
		t.Errorf("the manifest says %s is at %q: a delta was applied over a full manifest written after it", rels[0], got)
	}
}

// TestManifestWriteIsSmall: on 3,000 sources, one-day writes store few
// bytes of manifest: the same day written again and again stores a delta
// of one path; 300 days written one after the other store, per write, a
// small part of the full manifest (the delta, and the full one once every
// deltaMax days).
func TestManifestWriteIsSmall(t *testing.T) {
	ctx := context.Background()
	root, rels, x := builtCorpus(t, 3000)
	prev, _ := storedKeys(t, x)
	fullSize := len(prev)
	stored := func() int {
		full, delta := storedKeys(t, x)
		n := len(delta)
		if !bytes.Equal(full, prev) {
			n += len(full)
		}
		prev = full
		return n
	}
	today := rels[len(rels)-1]
	for i := range 20 {
		appendNote(t, root, today, i)
		if _, err := x.SyncPaths(ctx, []string{today}, DayFiles{Root: root}); err != nil {
			t.Fatal(err)
		}
		if n := stored(); n > 200 {
			t.Errorf("write %d of one day stored %d bytes of manifest, want at most 200 (the full one is %d)", i, n, fullSize)
		}
	}
	total := 0
	const spread = 300
	for i, rel := range rels[:spread] {
		appendNote(t, root, rel, 100+i)
		if _, err := x.SyncPaths(ctx, []string{rel}, DayFiles{Root: root}); err != nil {
			t.Fatal(err)
		}
		total += stored()
	}
	if per := total / spread; per > fullSize/10 {
		t.Errorf("a write of another day stored %d bytes of manifest on average, want at most a tenth of the full %d", per, fullSize)
	} else {
		t.Logf("a write of another day stored %d bytes of manifest on average; the full one is %d", per, fullSize)
	}
	if s := diffManifests(manifestOf(x), listed(t, root)); s != "" {
		t.Errorf("the manifest differs from the files:%s", s)
	}
}
