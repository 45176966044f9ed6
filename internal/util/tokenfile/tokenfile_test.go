package tokenfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestEnsure: the first call makes a 0600 file in a 0700 folder; later
// calls, and callers that race to make it, get the same token; a file
// others may read is replaced and the caller told.
func TestEnsure(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "x.token")
	if _, err := Read(path, "x"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Read of no file: %v, want fs.ErrNotExist", err)
	}
	toks := make([]string, 8)
	var wg sync.WaitGroup
	for i := range toks {
		wg.Go(func() {
			tok, replaced, err := Ensure(path, "x")
			if err != nil || replaced {
				t.Errorf("Ensure %d: %v, replaced %v", i, err, replaced)
			}
			toks[i] = tok
		})
	}
	wg.Wait()
	for _, tok := range toks {
		if tok != toks[0] || len(tok) != 64 {
			t.Fatalf("racing Ensure calls got %q, want one token of 64 hex digits", toks)
		}
	}
	for p, want := range map[string]fs.FileMode{path: 0o600, filepath.Dir(path): 0o700} {
		fi, err := os.Stat(p)
		if err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v, mode %04o, want %04o", p, err, fi.Mode().Perm(), want)
		}
	}
	if got, err := Read(path, "x"); err != nil || got != toks[0] {
		t.Errorf("Read: %q %v, want %q", got, err, toks[0])
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	tok, replaced, err := Ensure(path, "x")
	if err != nil || !replaced || tok == toks[0] {
		t.Errorf("Ensure of a file others may read: %q replaced %v %v, want a new token, replaced", tok, replaced, err)
	}
	if other, _, _ := Ensure(filepath.Join(t.TempDir(), "y.token"), "y"); other == tok {
		t.Error("two files hold the same token")
	}
}

// TestReadBad: a file that holds no token is an error naming the file and
// the way out, and Ensure does not rewrite it behind the owner's back.
func TestReadBad(t *testing.T) {
	for _, content := range []string{"", "short\n", strings.Repeat("a", 40) + " b\n", strings.Repeat("a/", 20)} {
		path := filepath.Join(t.TempDir(), "x.token")
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		_, _, err := Ensure(path, "web")
		if err == nil || !strings.Contains(err.Error(), "web token "+path) || !strings.Contains(err.Error(), "remove the file") {
			t.Errorf("Ensure of %q: %v, want an error naming the file and what to do", content, err)
		}
		if data, _ := os.ReadFile(path); string(data) != content {
			t.Errorf("Ensure rewrote a bad token file: %q, was %q", data, content)
		}
	}
}

func TestEqual(t *testing.T) {
	want := []byte(strings.Repeat("ab", 32))
	if !Equal(string(want), want) || Equal(string(want[:63]), want) || Equal(string(want)+"0", want) || Equal("", want) {
		t.Error("Equal is not string equality")
	}
}
