package apiclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// serve runs h on a real Unix socket with net/http's server, as the daemon
// does, and returns the socket and a count of the connections it took.
func serve(t *testing.T, h http.Handler, idle time.Duration) (string, *atomic.Int64) {
	t.Helper()
	dir, err := os.MkdirTemp("", "apiclient")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := filepath.Join(dir, "d.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	var conns atomic.Int64
	srv := &http.Server{Handler: h, IdleTimeout: idle, ConnState: func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return path, &conns
}

func post(t *testing.T, tr *transport, ctx context.Context, path string, body []byte, length int64) (*answer, error) {
	t.Helper()
	return tr.roundTrip(ctx, request{path: path, body: bytes.NewReader(body), length: length,
		header: [][2]string{{"Content-Type", "application/json"}}})
}

// TestTransportBodies reads answers with a length, chunked (a body the
// server does not size) and sends bodies with a length and chunked, on one
// reused connection.
func TestTransportBodies(t *testing.T) {
	big := strings.Repeat("zeppelin ", 100_000)
	socket, conns := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		w.Header().Set("X-Got", fmt.Sprint(len(data), r.Header.Get("Content-Type"), r.URL.RawQuery))
		if r.URL.Path == "/big" {
			io.WriteString(w, big) // over the server's buffer: chunked
			return
		}
		w.Write(data)
	}), 0)
	tr := &transport{socket: socket}
	defer tr.closeIdle()
	for i := range 5 {
		a, err := post(t, tr, context.Background(), "/echo?x=1", []byte(`{"n":1}`), 7)
		if err != nil || a.status != 200 || string(a.body) != `{"n":1}` || a.header["x-got"] != "7application/jsonx=1" {
			t.Fatalf("echo %d: %v %+v", i, err, a)
		}
		a, err = post(t, tr, context.Background(), "/big", nil, 0)
		if err != nil || string(a.body) != big {
			t.Fatalf("chunked answer %d: %v, %d bytes", i, err, len(a.body))
		}
		in := bytes.Repeat([]byte("{}\n"), 2<<20)
		a, err = post(t, tr, context.Background(), "/echo", in, -1)
		if err != nil || !bytes.Equal(a.body, in) {
			t.Fatalf("chunked request %d: %v, %d bytes back", i, err, len(a.body))
		}
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("15 requests took %d connections; want one, reused", n)
	}
}

// TestTransportIdleClosed asks again after the server closed the idle
// connection: the client notices and dials anew.
func TestTransportIdleClosed(t *testing.T) {
	socket, conns := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }), 50*time.Millisecond)
	tr := &transport{socket: socket}
	defer tr.closeIdle()
	for i := range 3 {
		if a, err := post(t, tr, context.Background(), "/", nil, 0); err != nil || string(a.body) != "ok" {
			t.Fatalf("request %d: %v", i, err)
		}
		for deadline := time.Now().Add(time.Minute); conns.Load() == int64(i+1); time.Sleep(10 * time.Millisecond) {
			tr.mu.Lock()
			idle := len(tr.idle)
			tr.mu.Unlock()
			if idle == 1 && !alive(tr.idle[0].c) {
				break // the server closed it
			}
			if time.Now().After(deadline) {
				t.Fatal("the server did not close the idle connection")
			}
		}
	}
	if n := conns.Load(); n != 3 {
		t.Errorf("%d connections; want one a request", n)
	}
}

// TestTransportWaits: the header timeout and a cancelled context end the
// wait for a server that took the request and does not answer.
func TestTransportWaits(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	socket, _ := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release }), 0)
	tr := &transport{socket: socket, headerTimeout: 100 * time.Millisecond}
	if _, err := post(t, tr, context.Background(), "/", nil, 0); !errors.Is(err, errHeaderTimeout) {
		t.Errorf("a server that does not answer: %v; want the header timeout", err)
	}
	tr = &transport{socket: socket}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	if _, err := post(t, tr, ctx, "/", nil, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v; want context.Canceled", err)
	}
}

// TestTransportEarlyAnswer: a server that answers before it read the whole
// request (an import's first bad line) is heard.
func TestTransportEarlyAnswer(t *testing.T) {
	socket, _ := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadFull(r.Body, make([]byte, 10))
		w.WriteHeader(422)
		io.WriteString(w, `{"error":{"code":"bad_input","message":"line 1"}}`)
	}), 0)
	tr := &transport{socket: socket}
	a, err := post(t, tr, context.Background(), "/", bytes.Repeat([]byte("x"), 32<<20), -1)
	if err != nil || a.status != 422 || !strings.Contains(string(a.body), "line 1") {
		t.Fatalf("early answer: %v %+v", err, a)
	}
}

// TestDialErrors: no socket and a socket no one listens on are NoListener.
func TestDialErrors(t *testing.T) {
	dir := t.TempDir()
	_, err := dial(context.Background(), filepath.Join(dir, "none.sock"), DialTimeout)
	if !NoListener(err) || !strings.Contains(err.Error(), "none.sock") {
		t.Errorf("no socket: %v", err)
	}
	path := filepath.Join(dir, "stale.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	if _, err := dial(context.Background(), path, DialTimeout); !NoListener(err) {
		t.Errorf("stale socket: %v", err)
	}
}
