package index_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/daybooktest"
	"github.com/daybook/daybook/internal/models/offline"
)

// builtIndex returns a data dir with an index of one day, closed.
func builtIndex(t *testing.T) (root, dir string) {
	t.Helper()
	root = t.TempDir()
	daybooktest.Entries(t, root, "2026-02-13", "Chose Argon2 over bcrypt", "Lunch with Mara")
	x := open(t, root, offline.NewEmbedder())
	sync(t, x, root)
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	return root, filepath.Join(root, "index")
}

func TestCheckReadsAHealthyIndex(t *testing.T) {
	_, dir := builtIndex(t)
	r, err := index.Check(context.Background(), dir)
	if err != nil || r.Docs < 2 || r.Vectors < 2 || r.Bytes == 0 {
		t.Fatalf("Check: %+v %v", r, err)
	}
}

// Check finds what Open would move aside, and changes nothing.
func TestCheckFindsACorruptIndex(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		spoil      func(t *testing.T, dir string)
	}{
		{"vectors", "vectors.bin", func(t *testing.T, dir string) { flip(t, filepath.Join(dir, "vectors.bin")) }},
		{"meta", "meta.json", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "meta.json"), []byte("{\"format\": "), 0o644)
		}},
		// Scorch falls back to an older snapshot, or none, for segments
		// that will not load: the vectors tell.
		{"segment", "bleve", func(t *testing.T, dir string) {
			segs, _ := filepath.Glob(filepath.Join(dir, "bleve", "store", "*.zap"))
			if len(segs) == 0 {
				t.Fatal("no segment to spoil")
			}
			for _, s := range segs {
				os.WriteFile(s, []byte("not a segment"), 0o644)
			}
		}},
		{"bolt", "bleve", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "bleve", "store", "root.bolt"), []byte("garbage"), 0o644)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, dir := builtIndex(t)
			tc.spoil(t, dir)
			before := index.DiskBytes(dir)
			_, err := index.Check(context.Background(), dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Check of a spoilt %s: %v, want an error naming %s", tc.name, err, tc.want)
			}
			if got := index.DiskBytes(dir); got != before {
				t.Errorf("Check changed the index: %d bytes, was %d", got, before)
			}
			if aside := index.AsideDirs(dir); len(aside) != 0 {
				t.Errorf("Check moved the index aside: %v (root %s)", aside, root)
			}
		})
	}
}

// An index another process holds is that process's to read: ErrBusy.
func TestCheckOfAnIndexInUse(t *testing.T) {
	root, dir := builtIndex(t)
	x := open(t, root, offline.NewEmbedder())
	defer x.Close()
	if _, err := index.Check(context.Background(), dir); !errors.Is(err, index.ErrBusy) {
		t.Fatalf("Check of an open index: %v, want ErrBusy", err)
	}
}

func flip(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
