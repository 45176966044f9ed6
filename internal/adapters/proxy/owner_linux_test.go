package proxy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook/internal/adapters/proxy"
)

// otherUser creates a local user for the test and removes it after; it
// skips the test, saying why, where it cannot (not root, no useradd or
// runuser).
func otherUser(t *testing.T) string {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("skipping: creating a second local user needs root")
	}
	for _, tool := range []string{"useradd", "userdel", "runuser"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipping: no %s to run a second local user", tool)
		}
	}
	name := fmt.Sprintf("dbkprx%d", os.Getpid()%1000000)
	if out, err := exec.Command("useradd", "--no-create-home", "--shell", "/bin/sh", name).CombinedOutput(); err != nil {
		t.Skipf("skipping: useradd %s: %v %s", name, err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("userdel", name).CombinedOutput(); err != nil {
			t.Errorf("userdel %s: %v %s", name, err, out)
		}
	})
	return name
}

// asUser runs argv as the user name (runuser) in a folder it may enter and
// returns its standard output and its exit code.
func asUser(t *testing.T, name, dir string, argv ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("runuser", append([]string{"-u", name, "--"}, argv...)...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("runuser %v: %v", argv, err)
	}
	t.Logf("as %s: %s -> exit %d, %q %s", name, strings.Join(argv, " "), code, out, strings.TrimSpace(stderr.String()))
	return string(out), code
}

// publicCopy copies the test binary where another user may run it.
func publicCopy(t *testing.T) (dir, exe string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "daybook-owner-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	exe = filepath.Join(dir, "proxy.test")
	out, err := os.OpenFile(exe, os.O_WRONLY|os.O_CREATE, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return dir, exe
}

// Another local user is refused by the proxy on Linux: its connections
// (curl, and the Ollama Go client) are closed before a byte is read, even
// with the owner's token in the path, and nothing reaches the upstream or
// the day files; the owner's own requests are served. Before the check,
// the other user got 200 with the owner's memory in the request upstream
// and its turn written into the owner's day file.
func TestOtherUserRefused(t *testing.T) {
	other := otherUser(t)
	dir, exe := publicCopy(t)
	s := newServed(t, proxy.Options{}, proxy.ServerOptions{})
	if s.srv.Owner() != proxy.OwnerUID {
		t.Fatalf("owner check %s on Linux as root with /proc: want uid", s.srv.Owner())
	}
	s.remember("The safe's combination is 31-07-19.", "2026-05-04 07:40")
	s.up.Reply("Your safe's combination is 31-07-19.")
	before := dayFiles(t, s.dir)
	base := "http://" + s.addr
	for _, path := range []string{"/api/chat", proxy.TokenPrefix + s.token + "/api/chat", "/v1/chat/completions"} {
		out, code := asUser(t, other, dir, "curl", "-sS", "--max-time", "20", "-w", "\n%{http_code}", "-H", "Content-Type: application/json", "-d", chatBody, base+path)
		if code == 0 || strings.HasSuffix(strings.TrimSpace(out), "200") || strings.Contains(out, "31-07-19") {
			t.Errorf("curl %s as %s: exit %d, %q: want the connection closed", path, other, code, out)
		}
	}
	if out, code := asUser(t, other, dir, "curl", "-sS", "--max-time", "20", base+"/api/tags"); code == 0 || strings.Contains(out, "llama3.2") {
		t.Errorf("GET /api/tags as %s: exit %d, %q", other, code, out)
	}
	for _, url := range []string{base, base + proxy.TokenPrefix + s.token} {
		out, _ := asUser(t, other, dir, "env", "DAYBOOK_PROXY_HELPER=client", "DAYBOOK_PROXY_URL="+url, exe)
		var res clientResult
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("the client as %s printed %q: %v", other, out, err)
		}
		if res.Err == "" || res.Answer != "" || res.ListEr == "" || res.Models != 0 {
			t.Errorf("the Ollama Go client as %s at %s: %+v, want refused", other, url, res)
		}
	}
	s.waitIdle()
	s.nothingTouched(t, "another user's requests", before)
	if !strings.Contains(s.logText(), "closed a connection of another user") {
		t.Errorf("no log line for the refused connections:\n%s", s.logText())
	}

	// The owner: curl and the Ollama Go client, in a process of its own.
	if out, err := exec.Command("curl", "-sS", "--max-time", "20", "-H", "Content-Type: application/json", "-d", chatBody, base+"/api/chat").Output(); err != nil || !strings.Contains(string(out), "31-07-19") {
		t.Errorf("curl as the owner: %v %q", err, out)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "DAYBOOK_PROXY_HELPER=client", "DAYBOOK_PROXY_URL="+base)
	out, err := cmd.Output()
	var res clientResult
	if err != nil || json.Unmarshal(out, &res) != nil || res.Err != "" || !strings.Contains(res.Answer, "31-07-19") || res.Models == 0 {
		t.Errorf("the Ollama Go client as the owner: %v %q", err, out)
	}
	if n := len(s.chatEntries()); n != 4 {
		t.Errorf("the owner's two chats wrote %d entries, want 4", n)
	}
}

// The owner check reads tcp6 too: on [::1] the owner's connections are
// served.
func TestOwnerOverIPv6(t *testing.T) {
	ln, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		t.Skipf("skipping: no IPv6 loopback (%v)", err)
	}
	ln.Close()
	r := newRig(t, proxy.Options{})
	s, err := proxy.Listen("[::1]:0", r.proxy, proxy.ServerOptions{TokenFile: proxy.TokenPath(r.dir)})
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve()
	defer s.Close(context.Background())
	if s.Owner() != proxy.OwnerUID {
		t.Fatalf("owner check %s", s.Owner())
	}
	c := api.NewClient(mustURL(t, "http://"+s.Addr().String()), http.DefaultClient)
	if l, err := c.List(context.Background()); err != nil || len(l.Models) == 0 {
		t.Errorf("the owner over [::1]: %v %v", l, err)
	}
}
