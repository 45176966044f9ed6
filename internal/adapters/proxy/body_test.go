package proxy_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook/internal/adapters/proxy"
	"github.com/daybook/daybook/internal/models/ollama/ollamatest"
)

// rigAddr is the rig's loopback address, for raw requests.
func (r *rig) addr() string { return strings.TrimPrefix(r.srv.URL, "http://") }

// A body that is not a JSON object (null, an array, a string, a number,
// nothing) gets 400 with an error naming what it is, in the dialect of
// the path, and nothing goes upstream or to a day file. Before, null was
// answered 200 and forwarded with an empty model.
func TestNonObjectBodyRefused(t *testing.T) {
	ct := &countingTransport{next: http.DefaultTransport.(*http.Transport).Clone()}
	r := newRig(t, proxy.Options{Transport: ct})
	for _, path := range []string{"/api/chat", "/api/generate", "/v1/chat/completions"} {
		for _, c := range []struct{ body, want string }{
			{"null", "null"}, {" \n null", "null"}, {"[]", "an array"}, {`"hi"`, "a string"},
			{"42", "a number"}, {"true", "a boolean"}, {"", "empty"},
		} {
			code, body := raw(t, r.addr(), rawPost(path, "127.0.0.1", "Content-Type: application/json\r\n", c.body))
			if code != http.StatusBadRequest || !strings.Contains(body, "must be a JSON object, not "+c.want) {
				t.Errorf("%s %q: %d %s, want 400 naming %s", path, c.body, code, body, c.want)
			}
		}
	}
	r.waitIdle()
	if n := ct.n.Load(); n != 0 {
		t.Errorf("%d requests went upstream", n)
	}
	if es := r.chatEntries(); len(es) != 0 {
		t.Errorf("entries written: %q", texts(es))
	}
}

// repeatReader gives n bytes of a JSON string's inside without holding
// them.
type repeatReader struct{ n int64 }

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > r.n {
		p = p[:r.n]
	}
	for i := range p {
		p[i] = 'a'
	}
	r.n -= int64(len(p))
	return len(p), nil
}

// bigBody writes a chat request of about size bytes to w: a user message
// of size bytes of "a".
func bigBody(w io.Writer, size int64) error {
	if _, err := io.WriteString(w, `{"model":"llama3.2","stream":false,"messages":[{"role":"user","content":"`); err != nil {
		return err
	}
	if _, err := io.Copy(w, &repeatReader{n: size}); err != nil {
		return err
	}
	_, err := io.WriteString(w, `"}]}`)
	return err
}

// sendBig posts a chat body of size bytes on a raw connection, with a
// Content-Length or chunked, while reading the answer: it returns the
// status and how many bytes of the body were written when the answer
// came.
func sendBig(t *testing.T, addr string, size int64, chunked bool) (status int, sent int64) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	head := "POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
	if chunked {
		head += "Transfer-Encoding: chunked\r\n\r\n"
	} else {
		head += fmt.Sprintf("Content-Length: %d\r\n\r\n", size+int64(len(`{"model":"llama3.2","stream":false,"messages":[{"role":"user","content":"`)+len(`"}]}`)))
	}
	var written counter
	go func() {
		io.WriteString(c, head)
		var w io.Writer = &written
		if chunked {
			cw := &chunkWriter{w: c}
			w = io.MultiWriter(cw, &written)
			defer io.WriteString(c, "0\r\n\r\n")
		} else {
			w = io.MultiWriter(c, &written)
		}
		bigBody(w, size)
	}()
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("reading the answer to a %d-byte body: %v", size, err)
	}
	sent = written.n.Load()
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode == http.StatusRequestEntityTooLarge && !strings.Contains(string(body), "proxy.max_body_mib") {
		t.Errorf("413 body %s does not name proxy.max_body_mib", body)
	}
	return resp.StatusCode, sent
}

// A body over the limit gets 413 with a JSON error naming the setting,
// before the rest of it is sent: at once when its Content-Length says so,
// after about the limit when it is chunked. Before, the proxy read 256 MiB
// of it whatever it was.
func TestBodyOverLimit(t *testing.T) {
	r := newRig(t, proxy.Options{MaxBody: 1 << 20})
	const size = 200 << 20
	for _, chunked := range []bool{false, true} {
		status, sent := sendBig(t, r.addr(), size, chunked)
		t.Logf("chunked %v: %d after %d bytes of %d", chunked, status, sent, size)
		if status != http.StatusRequestEntityTooLarge {
			t.Errorf("chunked %v: %d, want 413", chunked, status)
		}
		if sent > 64<<20 {
			t.Errorf("chunked %v: the answer came after %d bytes were sent; want it near the 1 MiB limit", chunked, sent)
		}
	}
	r.up.Reply("fine")
	if status, _ := sendBig(t, r.addr(), 512<<10, false); status != http.StatusOK {
		t.Errorf("a body under the limit: %d", status)
	}
}

// A body that trickles in is cut when BodyTimeout has passed since the
// request began (408), and nothing goes upstream; the read deadline is no
// longer lifted before the body is read. Before, a slow body held its
// connection for as long as it kept coming (past 40 s).
func TestSlowBodyTimesOut(t *testing.T) {
	ct := &countingTransport{next: http.DefaultTransport.(*http.Transport).Clone()}
	r := newRig(t, proxy.Options{BodyTimeout: 300 * time.Millisecond, Transport: ct})
	c, err := net.Dial("tcp", r.addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	body := []byte(chatBody)
	fmt.Fprintf(c, "POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n\r\n", len(body))
	// One byte every 50 ms: the whole body would take ~6 s.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for _, b := range body {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
			if _, err := c.Write([]byte{b}); err != nil {
				return
			}
		}
	}()
	start := time.Now()
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	took := time.Since(start)
	if err != nil {
		t.Fatalf("no answer to a slow body after %s: %v", took, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Errorf("slow body: %d after %s, want 408", resp.StatusCode, took)
	}
	if took > 5*time.Second {
		t.Errorf("a slow body held the request %s; BodyTimeout is 300ms", took)
	}
	r.waitIdle()
	if n := ct.n.Load(); n != 0 {
		t.Errorf("%d requests went upstream", n)
	}
}

// A stream that goes on longer than BodyTimeout is not cut by it: the
// deadline is lifted once the body is in.
func TestStreamOutlivesBodyTimeout(t *testing.T) {
	r := newRig(t, proxy.Options{BodyTimeout: 100 * time.Millisecond})
	r.up.OnChat(func(int, *api.ChatRequest) ollamatest.ChatReply {
		return ollamatest.ChatReply{Content: strings.Repeat("slow words ", 10), ChunkDelay: 40 * time.Millisecond}
	})
	got := chatVia(t, r.client(), &api.ChatRequest{Model: "llama3.2", Messages: []api.Message{{Role: "user", Content: "take your time"}}})
	if got != strings.Repeat("slow words ", 10) {
		t.Errorf("got %q", got)
	}
}

// counter counts the bytes written through it.
type counter struct{ n atomic.Int64 }

func (c *counter) Write(p []byte) (int, error) { c.n.Add(int64(len(p))); return len(p), nil }

// chunkWriter writes HTTP/1.1 chunks.
type chunkWriter struct{ w io.Writer }

func (c *chunkWriter) Write(p []byte) (int, error) {
	if _, err := fmt.Fprintf(c.w, "%x\r\n", len(p)); err != nil {
		return 0, err
	}
	if _, err := c.w.Write(p); err != nil {
		return 0, err
	}
	_, err := io.WriteString(c.w, "\r\n")
	return len(p), err
}

// vmKiB reads a field of /proc/PID/status in KiB.
func vmKiB(t *testing.T, pid int, field string) int64 {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("skipping: no /proc/%d/status (%v)", pid, err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	t.Skipf("skipping: no %s in /proc/%d/status", field, pid)
	return 0
}

// resetPeak resets the peak RSS (VmHWM) of process pid to its RSS now.
func resetPeak(t *testing.T, pid int) {
	t.Helper()
	if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0); err != nil {
		t.Skipf("skipping: cannot reset the peak RSS (%v)", err)
	}
}

// The proxy's process stays within 100 MiB of its resident set at start
// through a 10 MB paste (answered) and a 200 MB body (refused with 413,
// sent chunked, so that only the count stops it): the peak resident set
// (VmHWM, reset through /proc/PID/clear_refs) of a process that serves the
// proxy as the daemon does is read after each. Before, a 200 MB body was
// read whole: RSS +1.5 GB.
func TestBigBodiesBoundedMemory(t *testing.T) {
	if raceOn {
		t.Skip("skipping: the race detector multiplies the memory it measures")
	}
	if _, err := os.Stat("/proc/self/clear_refs"); err != nil {
		t.Skipf("skipping: no /proc/self/clear_refs (%v)", err)
	}
	up := ollamatest.New(t, "llama3.2")
	up.Reply("Got it.")
	up.Forget()
	proc, addr := startServerProcess(t, t.TempDir(), up.URL)
	pid := proc.Pid
	// warm up: one small chat, so that start-up work is not counted
	if status, _ := sendBig(t, addr, 100, false); status != http.StatusOK {
		t.Fatalf("a small chat: %d", status)
	}
	// The 200 MB body first: the paste's turn is over the entry limit and
	// waits in the spool, which a later request retries.
	resetPeak(t, pid)
	start := vmKiB(t, pid, "VmRSS")
	status, sent := sendBig(t, addr, 200<<20, true)
	big := vmKiB(t, pid, "VmHWM") - start
	if status != http.StatusRequestEntityTooLarge {
		t.Errorf("a 200 MB body: %d after %d bytes, want 413", status, sent)
	}
	resetPeak(t, pid)
	status, _ = sendBig(t, addr, 10<<20, false)
	paste := vmKiB(t, pid, "VmHWM") - start
	if status != http.StatusOK {
		t.Errorf("a 10 MB paste: %d, want 200", status)
	}
	after := vmKiB(t, pid, "VmRSS")
	t.Logf("RSS at start %d MiB; peak over it: %d MiB through a 200 MB body (413 after %d MiB sent), %d MiB through a 10 MB paste; RSS after %d MiB",
		start>>10, big>>10, sent>>20, paste>>10, after>>10)
	if paste > 100<<10 || big > 100<<10 {
		t.Errorf("the peak RSS grew more than 100 MiB")
	}
}

// A passed-through body (here /api/show) that stalls is cut once
// BodyTimeout passes without a byte: the connection ends instead of
// waiting for ever, while the proxy's own requests go on.
func TestPassThroughStalledBodyCut(t *testing.T) {
	r := newRig(t, proxy.Options{BodyTimeout: 300 * time.Millisecond})
	c, err := net.Dial("tcp", r.addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /api/show HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{\"model\":")
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	start := time.Now()
	_, err = io.ReadAll(c) // an answer or none, then the end of the connection
	if err != nil {
		t.Fatalf("the connection of a stalled body still open after %s: %v", time.Since(start), err)
	}
	r.waitIdle()
	if code, body := raw(t, r.addr(), "GET /api/tags HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"); code != http.StatusOK {
		t.Errorf("a request after the stall: %d %s", code, body)
	}
}
