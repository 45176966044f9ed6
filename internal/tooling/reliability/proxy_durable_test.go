package reliability

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook/internal/models/ollama/ollamatest"
)

// freePort returns a loopback port nothing listens on now.
func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// waitListening waits until addr takes a TCP connection.
func waitListening(t testing.TB, p *proc, addr string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the proxy at %s did not listen within %v\n%s", addr, limit, p.logText())
}

// TestKillDaemonWhenClientReadsDone SIGKILLs the daemon the moment the
// Ollama Go client reads the final message ("done": true) of a streamed
// chat through the memory proxy: the turn the client was told is done must
// be in the day file, the user's message and the answer, every time.
func TestKillDaemonWhenClientReadsDone(t *testing.T) {
	up := ollamatest.New(t, "llama3.2")
	up.OnChat(func(_ int, req *api.ChatRequest) ollamatest.ChatReply {
		last := req.Messages[len(req.Messages)-1].Content
		return ollamatest.ChatReply{Content: "Answer to " + strings.TrimPrefix(last, "Question ") + ", in a few words."}
	})
	port := freePort(t)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	r := newRig(t, fmt.Sprintf("timezone: UTC\nproxy:\n  listen: %s\n  upstream: %s\n", addr, up.URL))
	u, _ := url.Parse("http://" + addr)
	client := api.NewClient(u, http.DefaultClient)
	n := runs(12, 60)
	told, lost := 0, 0
	for i := range n {
		d := r.startDaemon()
		waitListening(t, d, addr, 30*time.Second)
		marker := fmt.Sprintf("durable-%02d-%d", i, time.Now().UnixNano())
		stream := true
		killed := false
		err := client.Chat(context.Background(), &api.ChatRequest{Model: "llama3.2", Stream: &stream,
			Messages: []api.Message{{Role: "user", Content: "Question " + marker}}},
			func(resp api.ChatResponse) error {
				if resp.Done && !killed {
					killed = true
					d.cmd.Process.Signal(syscall.SIGKILL)
				}
				return nil
			})
		if !killed {
			t.Fatalf("chat %d: the client never read done: %v\n%s", i, err, d.logText())
		}
		told++
		d.kill() // waits for it to go
		days := allDays(t, r.dir)
		if !strings.Contains(days, "user: Question "+marker) || !strings.Contains(days, "llama3.2: Answer to "+marker) {
			t.Errorf("chat %d: the client read done, the daemon was killed, and the turn %s is not in the day files", i, marker)
			lost++
		}
	}
	t.Logf("%d chats told done, the daemon killed at once after each: %d turns lost", told, lost)
	// A daemon started after the kills serves on, and writes nothing twice.
	d := r.startDaemon()
	defer d.stop()
	days := allDays(t, r.dir)
	if c := strings.Count(days, "user: Question durable-"); c != n {
		t.Errorf("the day files hold %d user turns, want %d (each once)", c, n)
	}
}

// allDays returns every day file's content under dir, joined.
func allDays(t testing.TB, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(filepath.Join(dir, "days"), func(path string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && strings.HasSuffix(path, ".md") {
			data, _ := os.ReadFile(path)
			b.Write(data)
		}
		return nil
	})
	return b.String()
}
