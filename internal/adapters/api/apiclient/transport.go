package apiclient

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// conn is a connection to the socket: an *os.File on Unix, a net.Conn
// elsewhere.
type conn interface {
	io.ReadWriteCloser
	SetDeadline(time.Time) error
	SetReadDeadline(time.Time) error
}

// maxIdle is how many idle connections a client keeps for its next requests.
const maxIdle = 64

// maxHeader bounds the status line and headers of an answer.
const maxHeader = 64 << 10

// transport speaks HTTP/1.1 over the daemon's socket, the part of it the
// daemon's server (net/http) answers with: a request with a length or
// chunked, an answer with a length, chunked, or up to the close. It is here
// rather than net/http's so that the front links neither net/http nor the
// net package (see dial).
type transport struct {
	socket        string
	headerTimeout time.Duration // 0: none

	mu   sync.Mutex
	idle []*pconn
}

// pconn is a connection and its reader, kept between requests.
type pconn struct {
	c  conn
	br *bufio.Reader
}

// answer is the daemon's answer: its status, the headers it sets (keys in
// lower case) and the whole body.
type answer struct {
	status int
	line   string // the status line's reason: "Not Found"
	header map[string]string
	body   []byte
}

// request is what roundTrip sends.
type request struct {
	path   string
	header [][2]string
	body   io.Reader
	length int64 // -1: unknown, sent chunked
}

func (t *transport) get(ctx context.Context) (*pconn, error) {
	t.mu.Lock()
	for len(t.idle) > 0 {
		pc := t.idle[len(t.idle)-1]
		t.idle = t.idle[:len(t.idle)-1]
		t.mu.Unlock()
		if alive(pc.c) {
			return pc, nil
		}
		pc.c.Close()
		t.mu.Lock()
	}
	t.mu.Unlock()
	c, err := dial(ctx, t.socket, DialTimeout)
	if err != nil {
		return nil, err
	}
	return &pconn{c: c, br: bufio.NewReaderSize(c, 16<<10)}, nil
}

func (t *transport) put(pc *pconn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.idle) >= maxIdle {
		pc.c.Close()
		return
	}
	t.idle = append(t.idle, pc)
}

// closeIdle closes the idle connections.
func (t *transport) closeIdle() {
	t.mu.Lock()
	idle := t.idle
	t.idle = nil
	t.mu.Unlock()
	for _, pc := range idle {
		pc.c.Close()
	}
}

// errHeaderTimeout is the answer that did not begin within headerTimeout.
var errHeaderTimeout = errors.New("timeout awaiting the answer's headers")

// roundTrip posts req and reads the answer. Cancelling ctx closes the
// connection's wait at once and returns ctx's error.
func (t *transport) roundTrip(ctx context.Context, req request) (*answer, error) {
	pc, err := t.get(ctx)
	if err != nil {
		return nil, err
	}
	var cancelled bool
	var cmu sync.Mutex
	stop := context.AfterFunc(ctx, func() {
		cmu.Lock()
		defer cmu.Unlock()
		cancelled = true
		pc.c.SetDeadline(time.Unix(1, 0)) // every wait ends now
	})
	// setRead sets the read deadline unless ctx ended the waits already.
	setRead := func(d time.Time) {
		cmu.Lock()
		defer cmu.Unlock()
		if !cancelled {
			pc.c.SetReadDeadline(d)
		}
	}
	a, reuse, err := t.exchange(pc, req, setRead)
	if !stop() {
		cmu.Lock()
		c := cancelled
		cmu.Unlock()
		if c {
			pc.c.Close()
			return nil, ctx.Err()
		}
	}
	if err != nil {
		pc.c.Close()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	if reuse {
		t.put(pc)
	} else {
		pc.c.Close()
	}
	return a, nil
}

// exchange writes req on pc and reads the answer; reuse is whether pc may
// carry another request.
func (t *transport) exchange(pc *pconn, req request, setRead func(time.Time)) (a *answer, reuse bool, err error) {
	werr := writeRequest(pc.c, req)
	if t.headerTimeout > 0 {
		setRead(time.Now().Add(t.headerTimeout))
	}
	a, closeAfter, rerr := readAnswer(pc.br, func() { setRead(time.Time{}) })
	if rerr != nil {
		if werr != nil {
			// The daemon closed the connection before it read the whole
			// request, and gave no answer.
			return nil, false, fmt.Errorf("sending the request: %w", werr)
		}
		if t.headerTimeout > 0 && errors.Is(rerr, os.ErrDeadlineExceeded) && a == nil {
			return nil, false, errHeaderTimeout
		}
		return nil, false, rerr
	}
	// An answer before the whole request went (an error the daemon gave on
	// the first bad line) is an answer; the connection is not reused.
	return a, werr == nil && !closeAfter, nil
}

// writeRequest writes req as a POST.
func writeRequest(c conn, req request) error {
	w := bufio.NewWriterSize(c, 16<<10)
	fmt.Fprintf(w, "POST %s HTTP/1.1\r\nHost: daybook\r\nUser-Agent: daybook\r\n", req.path)
	for _, h := range req.header {
		fmt.Fprintf(w, "%s: %s\r\n", h[0], h[1])
	}
	if req.length >= 0 {
		fmt.Fprintf(w, "Content-Length: %d\r\n\r\n", req.length)
		if _, err := io.Copy(w, req.body); err != nil {
			return err
		}
		return w.Flush()
	}
	w.WriteString("Transfer-Encoding: chunked\r\n\r\n")
	buf := make([]byte, 32<<10)
	for {
		n, err := req.body.Read(buf)
		if n > 0 {
			fmt.Fprintf(w, "%x\r\n", n)
			w.Write(buf[:n])
			if _, werr := w.WriteString("\r\n"); werr != nil {
				return werr
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("reading the request body: %w", err)
		}
	}
	w.WriteString("0\r\n\r\n")
	return w.Flush()
}

// readAnswer reads an answer: 1xx answers are skipped; gotHeader runs once
// the headers are in. closeAfter says the daemon will close the connection.
func readAnswer(br *bufio.Reader, gotHeader func()) (a *answer, closeAfter bool, err error) {
	for {
		a, err = readHeader(br)
		if err != nil {
			return nil, false, err
		}
		if a.status >= 200 {
			break
		}
	}
	gotHeader()
	closeAfter = strings.EqualFold(a.header["connection"], "close")
	switch te, cl := a.header["transfer-encoding"], a.header["content-length"]; {
	case te != "":
		if !strings.EqualFold(te, "chunked") {
			return a, true, fmt.Errorf("the daemon answered with Transfer-Encoding %q", te)
		}
		a.body, err = readChunked(br)
	case cl != "":
		n, perr := strconv.ParseInt(cl, 10, 64)
		if perr != nil || n < 0 {
			return a, true, fmt.Errorf("the daemon answered with Content-Length %q", cl)
		}
		a.body = make([]byte, n)
		_, err = io.ReadFull(br, a.body)
	default:
		a.body, err = io.ReadAll(br)
		closeAfter = true
	}
	if err != nil {
		return a, true, fmt.Errorf("reading the daemon's answer: %w", err)
	}
	return a, closeAfter, nil
}

// readHeader reads a status line and the headers after it.
func readHeader(br *bufio.Reader) (*answer, error) {
	size := 0
	line := func() (string, error) {
		s, err := br.ReadString('\n')
		size += len(s)
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return "", err
		}
		if size > maxHeader {
			return "", errors.New("the daemon's answer has over 64 KiB of headers")
		}
		return strings.TrimRight(s, "\r\n"), nil
	}
	status, err := line()
	if err != nil {
		return nil, err
	}
	proto, rest, _ := strings.Cut(status, " ")
	code, reason, _ := strings.Cut(rest, " ")
	n, err := strconv.Atoi(code)
	if !strings.HasPrefix(proto, "HTTP/1.") || err != nil || len(code) != 3 {
		return nil, fmt.Errorf("the daemon answered %.100q, not HTTP/1.1", status)
	}
	a := &answer{status: n, line: reason, header: map[string]string{}}
	for {
		h, err := line()
		if err != nil {
			return nil, err
		}
		if h == "" {
			return a, nil
		}
		k, v, ok := strings.Cut(h, ":")
		if !ok {
			return nil, fmt.Errorf("the daemon answered a malformed header %.100q", h)
		}
		a.header[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
	}
}

// readChunked reads a chunked body and its trailer.
func readChunked(br *bufio.Reader) ([]byte, error) {
	var body []byte
	for {
		s, err := br.ReadString('\n')
		if err != nil {
			return nil, err
		}
		size, _, _ := strings.Cut(strings.TrimRight(s, "\r\n"), ";")
		n, err := strconv.ParseInt(strings.TrimSpace(size), 16, 64)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("a malformed chunk size %.40q", s)
		}
		if n == 0 {
			for { // the trailer, up to its blank line
				t, err := br.ReadString('\n')
				if err != nil {
					return nil, err
				}
				if strings.TrimRight(t, "\r\n") == "" {
					return body, nil
				}
			}
		}
		start := len(body)
		body = append(body, make([]byte, n)...)
		if _, err := io.ReadFull(br, body[start:]); err != nil {
			return nil, err
		}
		if crlf, err := br.ReadString('\n'); err != nil || strings.TrimRight(crlf, "\r\n") != "" {
			return nil, fmt.Errorf("a chunk not ended by CRLF")
		}
	}
}
