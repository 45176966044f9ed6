package index

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// TestLocatedReadsTheFile holds the text of a day file's documents, which
// the index does not keep, to what the file says: as indexed; after a hand
// edit the index has not seen (lines moved, an entry gone, another changed);
// and with the file gone.
func TestLocatedReadsTheFile(t *testing.T) {
	root := t.TempDir()
	rel := writeFile(t, root, editDay, dayBefore)
	x := openTest(t, root, &countingEmbedder{})
	syncPath(t, x, root, rel)
	before := docsOf(t, root, editDay)
	var ids []string
	for _, d := range before {
		if !d.located() {
			t.Fatalf("%s (%q) is not located", d.ID, d.Text)
		}
		ids = append(ids, d.ID)
	}
	check := func(what string, want []Doc) {
		t.Helper()
		got, err := x.Get(context.Background(), ids)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Errorf("%s: Get returned %d documents; want %d", what, len(got), len(want))
		}
		for _, d := range want {
			h, ok := got[d.ID]
			if !ok {
				t.Errorf("%s: %s (%q) is missing", what, d.ID, d.Text)
				continue
			}
			if h.Text != d.Text || h.Line != d.Line || h.Kind != d.Kind || !slices.Equal(h.Tags, d.Tags) ||
				h.Level != date.LevelEntry || h.Period != editDay || h.Path != rel {
				t.Errorf("%s: %s reads back as %+v; want %+v", what, d.ID, h, d)
			}
		}
	}
	check("as indexed", before)

	// By hand, unseen by the index: every line moves down two, an entry
	// goes, another changes its text (and so its id). The notes' ids are
	// their lines: the one now at a note's old line is another text.
	writeFile(t, root, editDay, dayAfter)
	now := map[string]Doc{}
	for _, d := range docsOf(t, root, editDay) {
		now[d.ID] = d
	}
	var want []Doc
	for _, d := range before {
		if n, ok := now[d.ID]; ok {
			want = append(want, n)
		}
	}
	if len(want) != 3 {
		t.Fatalf("the edit keeps %d of the ids; the test wants 3 (the two entries and a note's line)", len(want))
	}
	check("after a hand edit", want)

	if err := os.Remove(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
		t.Fatal(err)
	}
	check("with the file gone", nil)
}

// TestLocatedMetaRoundTrips holds a located document's meta field to its
// lines and state: hashes of any bytes come back as they went in.
func TestLocatedMetaRoundTrips(t *testing.T) {
	for _, st := range []docState{{0, 0}, {0x1e1f00ff80c0e0f0, 0xffffffffffffffff}, {1, 0x00001e0000001f00}} {
		d := Doc{ID: "2026-03-14T09:00-abcdef012345", Level: date.LevelEntry, Period: editDay, Path: dayfiles.RelPath(date.MustParse(editDay)),
			Line: 300, EndLine: 302}
		loc, ok := unpackLocated(packLocated(d, st))
		if !ok || loc.line != 300 || loc.endLine != 302 || loc.state != st {
			t.Errorf("%+v packs and unpacks as %+v, %v", st, loc, ok)
		}
	}
	if _, ok := unpackLocated("entry\x1f2026-03-14"); ok {
		t.Error("a summary's meta unpacks as a located one")
	}
}
