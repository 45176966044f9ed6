package index_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/daybooktest"
	"github.com/daybook/daybook/internal/models/offline"
)

// Kills and corruptions used to leave one index.broken-* folder each, and
// nothing removed them: a new one moved aside removes the older ones.
func TestOnlyTheNewestBrokenIndexIsKept(t *testing.T) {
	root := t.TempDir()
	daybooktest.Entries(t, root, "2026-02-13", "Chose Argon2 over bcrypt")
	for _, old := range []string{"index.broken-20250101T000000", "index.broken-20250202T000000"} {
		if err := os.MkdirAll(filepath.Join(root, old, "bleve"), 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(root, old, "meta.json"), []byte("{}"), 0o644)
	}
	os.WriteFile(filepath.Join(root, "index.broken-notes.txt"), []byte("a file, not a folder moved aside"), 0o644)
	if got := index.AsideDirs(filepath.Join(root, "index")); len(got) != 2 || got[0].Bytes != 2 {
		t.Fatalf("AsideDirs before: %+v, want the 2 folders of 2 bytes each", got)
	}
	x := open(t, root, offline.NewEmbedder())
	sync(t, x, root)
	x.Close()
	os.WriteFile(filepath.Join(root, "index", "meta.json"), []byte("not json"), 0o644)

	x = open(t, root, offline.NewEmbedder())
	defer x.Close()
	got := index.AsideDirs(filepath.Join(root, "index"))
	if len(got) != 1 || got[0].Bytes == 0 {
		t.Fatalf("after a new break: %+v, want only the one just moved aside", got)
	}
	if _, err := os.Stat(filepath.Join(got[0].Path, "meta.json")); err != nil {
		t.Fatalf("the kept folder is not the index just moved aside: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "index.broken-notes.txt")); err != nil {
		t.Fatalf("a file that is no folder moved aside was removed: %v", err)
	}
}
