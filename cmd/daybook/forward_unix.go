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
	resp, err := send(path, args, nil, answerTimeout)
	if errors.As(err, &notTaken{}) {
		return 0, false
	}
	if err != nil {
		return fail("the daemon on %s took the command and did not answer: %v", path, err), true
	}
	os.Stdout.Write(resp.Stdout)
	os.Stderr.Write(resp.Stderr)
	return resp.Code, true
}

// hook hands the agent's hook (front.Hook: "hook EVENT") with the JSON on
// this process's stdin to the daemon, waiting at most hooks.timeout for a
// context and captureTimeout for a capture. A hook never fails the agent:
// when the daemon did not take it, a context hook prints nothing (which is
// what daybook-core would do without a daemon), and a capture runs in
// daybook-core with the same stdin, which spools it; once taken, a daemon
// too slow to answer leaves the context out, and a capture to finish there.
func hook(args []string, g globals, event string) (code int, ok bool) {
	path, cfg := g.load()
	if path == "" {
		return 0, false // daybook-core says what is wrong with the config
	}
	stdin, err := io.ReadAll(io.LimitReader(os.Stdin, front.MaxStdin+1))
	if err != nil || len(stdin) > front.MaxStdin {
		fmt.Fprintf(os.Stderr, "daybook: hook: reading the hook input: over %d bytes, or %v\n", front.MaxStdin, err)
		return 0, true
	}
	timeout := cfg.Hooks.Timeout
	if event == "capture" {
		timeout = captureTimeout
	}
	resp, err := send(path, args, stdin, timeout)
	switch {
	case errors.As(err, &notTaken{}) && event == "capture":
		return runCoreWith(args, stdin), true
	case errors.As(err, &notTaken{}):
		return 0, true
	case err != nil:
		fmt.Fprintf(os.Stderr, "daybook: hook: the daemon on %s did not answer: %v\n", path, err)
		return 0, true
	}
	os.Stdout.Write(resp.Stdout)
	os.Stderr.Write(resp.Stderr)
	return resp.Code, true
}

// captureTimeout bounds the wait for a capture, within the minute the
// installed hook gives it (daybook-core's hooks package).
const captureTimeout = 45 * time.Second

// send asks the daemon on the socket at path to run args with stdin, and
// returns its answer; a notTaken error when it did not run them.
func send(path string, args []string, stdin []byte, timeout time.Duration) (front.Response, error) {
	var resp front.Response
	cwd, err := os.Getwd()
	if err != nil {
		return resp, notTaken{err}
	}
	req := front.Request{Args: args, Cwd: cwd, Env: map[string]string{}, Stdin: stdin}
	for _, k := range front.EnvVars {
		if v, set := os.LookupEnv(k); set {
			req.Env[k] = v
		}
	}
	body, err := json.Marshal(req)
	if err != nil {
		return resp, notTaken{err}
	}
	answer, err := ask(path, body, timeout)
	if err != nil {
		return resp, err
	}
	err = json.Unmarshal(answer, &resp)
	return resp, err
}

// ask posts body to front.Path on the Unix socket at path and returns the
// answer's body when its status is 200. It speaks HTTP/1.0 on a socket
// opened with syscall, so that the front links neither net/http nor net:
// the daemon's Go server answers an HTTP/1.0 request with one response,
// not chunked, and closes the connection after it.
func ask(path string, body []byte, timeout time.Duration) ([]byte, error) {
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
	if err := conn.SetDeadline(time.Now().Add(timeout)); err != nil {
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
