//go:build unix

package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook/internal/models/ollama/ollamatest"
)

// output collects a child's stdout and waits for text in it.
type output struct {
	mu   sync.Mutex
	cond *sync.Cond
	b    bytes.Buffer
	eof  bool
}

func newOutput(r io.Reader) *output {
	o := &output{}
	o.cond = sync.NewCond(&o.mu)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			o.mu.Lock()
			o.b.Write(buf[:n])
			o.eof = err != nil
			o.cond.Broadcast()
			o.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return o
}

// waitFor waits until the output holds want n times, and fails after a
// minute (a guard against a hang, not a timing).
func (o *output) waitFor(t *testing.T, want string, n int) {
	t.Helper()
	timer := time.AfterFunc(time.Minute, func() { o.mu.Lock(); o.eof = true; o.cond.Broadcast(); o.mu.Unlock() })
	defer timer.Stop()
	o.mu.Lock()
	defer o.mu.Unlock()
	for strings.Count(o.b.String(), want) < n {
		if o.eof {
			t.Fatalf("the chat's output never held %q %d times:\n%s", want, n, o.b.String())
		}
		o.cond.Wait()
	}
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.String()
}

// TestChatInterrupt runs daybook-core chat as a child against a fake Ollama
// and presses Ctrl-C (SIGINT to the process, as the terminal sends it):
// during an answer it stops the answer, which is not remembered, and the
// chat goes on; at the prompt it ends the chat with exit 0. End of input
// (Ctrl-D) ends it with exit 0 too.
func TestChatInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds daybook-core")
	}
	work := t.TempDir()
	bin := filepath.Join(work, "bin")
	if out, err := exec.Command("go", "build", "-o", bin+string(filepath.Separator), "github.com/daybook/daybook/cmd/daybook-core").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	up := ollamatest.New(t, "llama3.2")
	long := "Once upon a time the zeppelin crossed the bay " + strings.Repeat("and the ballast tanks sang softly ", 30) + "the end."
	up.OnChat(func(n int, _ *api.ChatRequest) ollamatest.ChatReply {
		if n == 1 {
			return ollamatest.ChatReply{Content: long, ChunkDelay: 100 * time.Millisecond}
		}
		return ollamatest.ChatReply{Content: "The ballast is water."}
	})
	data := filepath.Join(work, "data")
	env := append(os.Environ(), "DAYBOOK_DIR="+data, "DAYBOOK_CONFIG=", "XDG_CONFIG_HOME="+filepath.Join(work, "config"),
		"XDG_RUNTIME_DIR="+filepath.Join(work, "run"))
	start := func() (*exec.Cmd, io.WriteCloser, *output, *bytes.Buffer) {
		cmd := exec.Command(filepath.Join(bin, "daybook-core"), "chat", "--upstream", up.URL, "--model", "llama3.2")
		cmd.Env = env
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd, stdin, newOutput(stdout), &stderr
	}

	cmd, stdin, out, stderr := start()
	out.waitFor(t, "> ", 1)
	io.WriteString(stdin, "Tell me the zeppelin story\n")
	out.waitFor(t, "ballast tanks sang", 1) // the answer is streaming
	cmd.Process.Signal(syscall.SIGINT)
	out.waitFor(t, "(answer stopped; the partial answer is not remembered)\n> ", 1)
	io.WriteString(stdin, "What is the ballast?\n")
	out.waitFor(t, "The ballast is water.\n", 1)
	out.waitFor(t, "> ", 3)
	cmd.Process.Signal(syscall.SIGINT) // at the prompt
	err := cmd.Wait()
	t.Logf("transcript:\n%s", out.String())
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("Ctrl-C at the prompt: %v, stderr %q; want exit 0 and nothing on stderr", err, stderr.String())
	}
	if o := out.String(); strings.Contains(o, "the end.") || strings.Contains(o, "error") {
		t.Errorf("the stopped answer went on, or an error was shown:\n%s", o)
	}
	ch := up.Chats()
	if len(ch) != 2 {
		t.Fatalf("%d chats reached the model; want 2", len(ch))
	}
	for _, m := range ch[1].Messages {
		if m.Role == "assistant" || strings.Contains(m.Content, "ballast tanks") {
			t.Errorf("the stopped answer went into what the model is sent next: %+v", m)
		}
	}
	var day []byte
	filepath.WalkDir(filepath.Join(data, "days"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(path)
			day = append(day, b...)
		}
		return nil
	})
	if strings.Contains(string(day), "ballast tanks") || !strings.Contains(string(day), "The ballast is water.") {
		t.Errorf("day files: want the whole answer and not the stopped one:\n%s", day)
	}

	// Ctrl-D: the end of the input.
	cmd, stdin, out, stderr = start()
	out.waitFor(t, "> ", 1)
	stdin.Close()
	if err := cmd.Wait(); err != nil || stderr.Len() > 0 {
		t.Fatalf("end of input: %v, stderr %q; want exit 0", err, stderr.String())
	}
}
