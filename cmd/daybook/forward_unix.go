//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/daybook/daybook/internal/front"
)

// answerTimeout bounds the wait for a daemon that took the connection;
// past it the front runs daybook-core, which waits as long and says so.
const answerTimeout = 30 * time.Second

// notTaken is a failure before the daemon ran the command: no daemon on
// the socket, or one that refused the command (another data dir, an older
// daemon). Nothing ran, so daybook-core may run it.
type notTaken struct{ error }

// forward asks the daemon on g's socket to run the command args names and
// prints what it wrote. ok is false, and nothing was printed, when the
// daemon did not take the command: the caller then runs daybook-core. Once
// the daemon took it, a failure is an error, not a second run: a remember
// that was written must not be written twice.
func forward(args []string, g globals) (code int, ok bool) {
	path := g.socket()
	if path == "" {
		return 0, false
	}
	cwd, err := os.Getwd()
	if err != nil {
		return 0, false
	}
	req := front.Request{Args: args, Cwd: cwd, Env: map[string]string{}}
	for _, k := range front.EnvVars {
		if v, set := os.LookupEnv(k); set {
			req.Env[k] = v
		}
	}
	body, err := json.Marshal(req)
	if err != nil {
		return 0, false
	}
	answer, err := ask(path, body)
	if errors.As(err, &notTaken{}) {
		return 0, false
	}
	var resp front.Response
	if err == nil {
		err = json.Unmarshal(answer, &resp)
	}
	if err != nil {
		return fail("the daemon on %s took the command and did not answer: %v", path, err), true
	}
	os.Stdout.Write(resp.Stdout)
	os.Stderr.Write(resp.Stderr)
	return resp.Code, true
}

// ask posts body to front.Path on the Unix socket at path and returns the
// answer's body when its status is 200. It speaks HTTP/1.0 on a socket
// opened with syscall, so that the front links neither net/http nor net:
// the daemon's Go server answers an HTTP/1.0 request with one response,
// not chunked, and closes the connection after it.
func ask(path string, body []byte) ([]byte, error) {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return nil, notTaken{err}
	}
	syscall.CloseOnExec(fd)
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: path}); err != nil {
		syscall.Close(fd)
		return nil, notTaken{err}
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return nil, notTaken{err}
	}
	conn := os.NewFile(uintptr(fd), path)
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(answerTimeout)); err != nil {
		return nil, notTaken{err}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "POST %s HTTP/1.0\r\nHost: daybook\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", front.Path, len(body))
	b.Write(body)
	// A request cut short is refused whole by the daemon's JSON decoding.
	if _, err := conn.Write(b.Bytes()); err != nil {
		return nil, notTaken{err}
	}
	answer, err := io.ReadAll(conn)
	if err != nil {
		return nil, err
	}
	return responseBody(answer)
}

// responseBody returns the body of the HTTP response r when its status is
// 200. 400, 404 and 409 say that the command did not run: a request the
// daemon could not read, an older daemon, or one that refused it.
func responseBody(r []byte) ([]byte, error) {
	head, body, ok := bytes.Cut(r, []byte("\r\n\r\n"))
	if !ok {
		return nil, fmt.Errorf("no end of the headers in the daemon's answer")
	}
	status, _, _ := bytes.Cut(head, []byte("\r\n"))
	fields := bytes.Fields(status)
	if len(fields) < 2 || !bytes.HasPrefix(fields[0], []byte("HTTP/")) {
		return nil, fmt.Errorf("not an HTTP answer: %q", status)
	}
	code, err := strconv.Atoi(string(fields[1]))
	switch {
	case err != nil:
		return nil, fmt.Errorf("not an HTTP answer: %q", status)
	case code == 400 || code == 404 || code == front.StatusRefused:
		return nil, notTaken{fmt.Errorf("the daemon answered %q: %s", status, bytes.TrimSpace(body))}
	case code != 200:
		return nil, fmt.Errorf("the daemon answered %q: %s", status, bytes.TrimSpace(body))
	}
	return body, nil
}
