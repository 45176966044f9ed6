package httpserve

import (
	"bufio"
	"net"
	"net/http"
	"strings"
	"testing"
)

// A request whose header is over MaxHeaderBytes is refused by a real server
// with 431, and one within it is served.
func TestNewBoundsHeaders(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := New(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }), nil)
	go srv.Serve(ln)
	defer srv.Close()
	get := func(header string) string {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + header + "\r\n\r\n"))
		line, _ := bufio.NewReader(c).ReadString('\n')
		return line
	}
	if got := get("small"); !strings.Contains(got, "200") {
		t.Errorf("a small header got %q", got)
	}
	if got := get(strings.Repeat("a", 2*MaxHeaderBytes)); !strings.Contains(got, "431") {
		t.Errorf("a header over MaxHeaderBytes got %q, want 431", got)
	}
	if srv.ReadHeaderTimeout == 0 || srv.WriteTimeout == 0 || srv.IdleTimeout == 0 || srv.ReadTimeout == 0 {
		t.Errorf("a timeout is unset: %+v", srv)
	}
}
