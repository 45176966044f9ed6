package daemon

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// shortDir returns a temp folder whose socket paths fit the ~108 bytes a
// Unix socket path may have; t.TempDir's can be longer.
func shortDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// hello answers every request with the path asked for.
var hello = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	io.WriteString(w, "hello "+r.URL.Path)
})

// startServer starts a SocketServer on path and stops it at the end of the test.
func startServer(t *testing.T, path string) *SocketServer {
	t.Helper()
	s, err := NewSocketServer(path, hello, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Serve() }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.Close(ctx); err != nil {
			t.Errorf("Close: %v", err)
		}
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return s
}

// get asks the server on the socket for path.
func get(t *testing.T, socket, path string) string {
	t.Helper()
	c := &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", socket)
		},
	}}
	defer c.CloseIdleConnections()
	resp, err := c.Get("http://daybook" + path)
	if err != nil {
		t.Fatalf("GET %s on %s: %v", path, socket, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
}

func TestSocketServesAndKeepsToItsOwner(t *testing.T) {
	dir := filepath.Join(shortDir(t), "run", "daybook")
	path := filepath.Join(dir, "daybook.sock")
	startServer(t, path)

	if got := get(t, path, "/v1/status"); got != "hello /v1/status" {
		t.Errorf("answer = %q", got)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o700 {
		t.Errorf("socket folder mode = %v, want 0700", perm)
	}
	fi, err = os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Type() != os.ModeSocket {
		t.Errorf("%s is %v, want a socket", path, fi.Mode())
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("socket mode = %v, want 0600", perm)
	}
}

func TestSocketLeavesAnExistingFolderAlone(t *testing.T) {
	dir := shortDir(t)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "daybook.sock")
	startServer(t, path)
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o755 {
		t.Errorf("existing folder mode changed to %v", perm)
	}
}

func TestSocketRefusesWhatIsNotASocket(t *testing.T) {
	dir := shortDir(t)
	for name, create := range map[string]func(string) error{
		"regular file": func(p string) error { return os.WriteFile(p, []byte("my notes\n"), 0o644) },
		"folder":       func(p string) error { return os.Mkdir(p, 0o755) },
		"symbolic link": func(p string) error {
			return os.Symlink(filepath.Join(dir, "elsewhere"), p)
		},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".sock")
			if err := create(path); err != nil {
				t.Fatal(err)
			}
			s, err := NewSocketServer(path, hello, nil)
			if err == nil {
				s.Close(context.Background())
				t.Fatalf("NewSocketServer over a %s succeeded", name)
			}
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "a "+name) {
				t.Errorf("error %q does not name %s as a %s", err, path, name)
			}
			if _, err := os.Lstat(path); err != nil {
				t.Errorf("the %s at the socket path was touched: %v", name, err)
			}
		})
	}
	// The regular file still holds what it held.
	data, err := os.ReadFile(filepath.Join(dir, "regular-file.sock"))
	if err != nil || string(data) != "my notes\n" {
		t.Errorf("regular file now holds %q, %v", data, err)
	}
}

func TestSocketReplacesAStaleSocket(t *testing.T) {
	path := filepath.Join(shortDir(t), "daybook.sock")
	// A daemon that died leaves its socket file and nobody listening.
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	if _, err := net.Dial("unix", path); err == nil {
		t.Fatal("the stale socket still answers")
	}

	startServer(t, path)
	if got := get(t, path, "/x"); got != "hello /x" {
		t.Errorf("answer after replacing the stale socket = %q", got)
	}
}

func TestSocketIsNotStolenFromALiveDaemon(t *testing.T) {
	path := filepath.Join(shortDir(t), "daybook.sock")
	startServer(t, path)

	second, err := NewSocketServer(path, hello, nil)
	if err == nil {
		second.Close(context.Background())
		t.Fatal("a second server took the socket of a live one")
	}
	if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "another daemon") {
		t.Errorf("error %q does not say that another daemon answers on %s", err, path)
	}
	// The first still answers on its socket.
	if got := get(t, path, "/still"); got != "hello /still" {
		t.Errorf("first server's answer = %q", got)
	}
}

func TestSocketCloseRemovesTheSocket(t *testing.T) {
	path := filepath.Join(shortDir(t), "daybook.sock")
	s, err := NewSocketServer(path, hello, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Serve() }()
	if got := get(t, path, "/a"); got != "hello /a" {
		t.Errorf("answer = %q", got)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Errorf("Serve after Close = %v, want nil", err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket file after Close: %v", err)
	}
	// The path is free for the next daemon.
	startServer(t, path)
}

func TestSocketCloseBeforeServe(t *testing.T) {
	path := filepath.Join(shortDir(t), "daybook.sock")
	s, err := NewSocketServer(path, hello, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := s.Serve(); err != nil {
		t.Errorf("Serve after Close = %v, want nil", err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket file after Close: %v", err)
	}
}
