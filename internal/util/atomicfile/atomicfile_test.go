package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReplacesWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b.json")
	for _, data := range []string{"first", "second, longer than the first"} {
		if err := Write(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != data {
			t.Fatalf("read %q, %v; want %q", got, err, data)
		}
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), TempPattern))
	if len(left) != 0 {
		t.Errorf("temp files left: %v", left)
	}
}

func TestWriteFailureLeavesOldContent(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := Write(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A folder where the file should be: the rename fails.
	bad := filepath.Join(dir, "d")
	os.Mkdir(bad, 0o755)
	os.WriteFile(filepath.Join(bad, "x"), nil, 0o644)
	if err := Write(bad, []byte("new"), 0o644); err == nil {
		t.Fatal("renaming over a non-empty folder succeeded")
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("old file = %q", got)
	}
	left, _ := filepath.Glob(filepath.Join(dir, TempPattern))
	if len(left) != 0 {
		t.Errorf("temp files left after a failure: %v", left)
	}
}
