package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook/internal/models/ollama/ollamatest"
)

// listeners returns the local addresses (as /proc/net/tcp writes them) of
// the listening TCP sockets this process holds: the kernel's listening
// sockets whose inode is one of /proc/self/fd's.
func listeners(t *testing.T) map[string]bool {
	t.Helper()
	mine := map[string]bool{}
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("skipping: no /proc/self/fd (%v)", err)
	}
	for _, fd := range fds {
		if l, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && strings.HasPrefix(l, "socket:[") {
			mine[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] = true
		}
	}
	out := map[string]bool{}
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(table)
		if err != nil {
			t.Skipf("skipping: %v", err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			f := strings.Fields(line)
			if len(f) > 9 && f[3] == "0A" && mine[f[9]] {
				out[f[1]] = true
			}
		}
	}
	return out
}

// daybook chat serves its proxy in process over in-memory connections:
// while a turn is being answered, the process listens on no TCP port it
// did not listen on before (the fake Ollama's). Before, chat served the
// proxy on a random loopback port that any user of the machine could use.
func TestChatListensNowhere(t *testing.T) {
	up := ollamatest.New(t, "llama3.2")
	before := listeners(t)
	var mu sync.Mutex
	var during map[string]bool
	up.OnChat(func(int, *api.ChatRequest) ollamatest.ChatReply {
		mu.Lock()
		during = listeners(t)
		mu.Unlock()
		return ollamatest.ChatReply{Content: "Nothing listens."}
	})
	var out, errOut bytes.Buffer
	e, _ := chatEnv(t, "Is anything listening?\n/quit\n", &out, &errOut)
	if code := runEnv(context.Background(), e, []string{"chat", "--upstream", up.URL, "--model", "llama3.2"}); code != 0 {
		t.Fatalf("chat exited %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "Nothing listens.") {
		t.Fatalf("no answer: %s %s", out.String(), errOut.String())
	}
	mu.Lock()
	defer mu.Unlock()
	if during == nil {
		t.Fatal("the upstream got no chat")
	}
	for addr := range during {
		if !before[addr] {
			t.Errorf("chat listens on %s (as /proc/net/tcp writes it) while it answers", addr)
		}
	}
}
