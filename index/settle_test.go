package index

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// builtIndex returns the folder of a closed index with one day in it, and
// the bytes of its vector image.
// dim is the test embedder's dimension, as builtIndex found it.
var dim int

func builtIndex(t *testing.T) (string, []byte) {
	t.Helper()
	root := t.TempDir()
	rel := writeFile(t, root, "2026-02-13", "# 2026-02-13 Friday\n\n- 09:00 Chose Argon2 over bcrypt\n")
	x := openTest(t, root, &countingEmbedder{})
	syncPath(t, x, root, rel)
	if x.vec.len() != 1 {
		t.Fatalf("%d vectors, want 1", x.vec.len())
	}
	dim = x.meta.Dim
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "index")
	good, err := os.ReadFile(filepath.Join(dir, vecBinName))
	if err != nil {
		t.Fatal(err)
	}
	return dir, good
}

// settle runs openSettled on dir; before each attempt it calls before with
// the attempt's number, as a writer the open lock does not stop would
// change the files meanwhile.
func settle(t *testing.T, dir string, before func(attempt int)) (*Index, bool, error) {
	t.Helper()
	attempt := 0
	mk := func() *Index {
		attempt++
		before(attempt)
		return newIndex(dir, &countingEmbedder{}, slog.New(slog.DiscardHandler), time.Now)
	}
	x, broken, err := openSettled(mk, meta{Format: Format, Embedder: (&countingEmbedder{}).Name(), Dim: dim}, time.Second)
	if x != nil {
		t.Cleanup(func() { x.Close() })
	}
	return x, broken, err
}

func writeVec(t *testing.T, dir string, b []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, vecBinName), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A vector image caught half written (by a writer that does not rename)
// opens once the writer is done: it is not moved aside.
func TestOpenRetriesFilesCaughtChanging(t *testing.T) {
	dir, good := builtIndex(t)
	x, broken, err := settle(t, dir, func(attempt int) {
		if attempt == 1 {
			writeVec(t, dir, good[:len(good)/2])
		} else {
			writeVec(t, dir, good)
		}
	})
	if err != nil || broken || x == nil {
		t.Fatalf("open after the writer finished: %v (broken %v)", err, broken)
	}
	if x.vec.len() != 1 {
		t.Fatalf("%d vectors, want 1", x.vec.len())
	}
}

// Files that never stop changing are not proof of a broken index: the
// error says so, and the index is left alone.
func TestOpenGivesUpOnFilesThatKeepChanging(t *testing.T) {
	dir, good := builtIndex(t)
	_, broken, err := settle(t, dir, func(attempt int) {
		writeVec(t, dir, good[:len(good)/2+attempt])
	})
	if err == nil || broken {
		t.Fatalf("open of changing files: %v (broken %v), want an error that is not broken", err, broken)
	}
	if !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "kept changing") {
		t.Errorf("the error does not say what happened: %v", err)
	}
}

// A corrupt image on files nobody changes is broken.
func TestOpenCallsStableCorruptionBroken(t *testing.T) {
	dir, good := builtIndex(t)
	bad := append([]byte(nil), good...)
	bad[len(bad)/2] ^= 0xff
	writeVec(t, dir, bad)
	_, broken, err := settle(t, dir, func(int) {})
	if err == nil || !broken {
		t.Fatalf("open of a corrupt image: %v (broken %v), want broken", err, broken)
	}
}

func TestSurroundingErrorsAreNotBroken(t *testing.T) {
	for _, err := range []error{ErrBusy, &os.PathError{Op: "open", Path: "vectors.bin", Err: syscall.EMFILE},
		&os.PathError{Op: "open", Path: "vectors.bin", Err: syscall.EACCES}, syscall.ENOSPC} {
		if couldBeBroken(err) {
			t.Errorf("%v could move the index aside", err)
		}
	}
	if !couldBeBroken(errors.New("vectors.bin: checksum mismatch")) {
		t.Error("a checksum mismatch cannot move the index aside")
	}
}
