package proxy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"
)

// DefaultMaxBody bounds the body of a request the proxy reads itself
// (/api/chat, /api/generate, /v1/chat/completions) when Options.MaxBody is
// 0: proxy.max_body_mib's default.
const DefaultMaxBody = 32 << 20

// DefaultBodyTimeout is how long a client has to send a body the proxy
// reads, from the start of the request, and how long a passed-through body
// may go without a byte: the socket servers' read timeout.
const DefaultBodyTimeout = 30 * time.Second

// errorWriter answers an error in a dialect: Ollama's or OpenAI's.
type errorWriter func(w http.ResponseWriter, status int, msg string)

// readJSON reads the body of a request the proxy handles itself into v: at
// most MaxBody bytes (413 as soon as the count is passed, or at once when
// Content-Length says so: the body is never held whole past the limit),
// within the read deadline ServeHTTP set (408 when it passes), and a JSON
// object (400 for null, an array, a string or anything else). It answers
// the client itself and returns false when the body is refused; once the
// body is read it lifts the read deadline, so that a long answer is not cut
// by it.
func (p *Proxy) readJSON(w http.ResponseWriter, r *http.Request, v any, fail errorWriter) bool {
	limit := p.opts.MaxBody
	if r.ContentLength > limit {
		fail(w, http.StatusRequestEntityTooLarge, tooLarge(r.ContentLength, limit))
		return false
	}
	data, err := readLimited(http.MaxBytesReader(w, r.Body, limit), r.ContentLength)
	if err != nil {
		var tooBig *http.MaxBytesError
		switch {
		case errors.As(err, &tooBig):
			fail(w, http.StatusRequestEntityTooLarge, tooLarge(-1, limit))
		case errors.Is(err, os.ErrDeadlineExceeded):
			w.Header().Set("Connection", "close")
			fail(w, http.StatusRequestTimeout, fmt.Sprintf("daybook proxy: the request's body did not arrive within %s", p.opts.BodyTimeout))
		default:
			fail(w, http.StatusBadRequest, "daybook proxy: reading the request's body: "+err.Error())
		}
		return false
	}
	http.NewResponseController(w).SetReadDeadline(time.Time{})
	data = bytes.TrimLeft(data, " \t\r\n")
	if len(data) == 0 || data[0] != '{' {
		fail(w, http.StatusBadRequest, "daybook proxy: the request's body must be a JSON object, not "+describeJSON(data))
		return false
	}
	if err := json.Unmarshal(data, v); err != nil {
		fail(w, http.StatusBadRequest, "daybook proxy: the request's body: "+err.Error())
		return false
	}
	return true
}

// readChunk is the piece a body of unknown length is read in.
const readChunk = 1 << 20

// readLimited reads r whole. With a known length it reads into one buffer
// of that size; without, into pieces of readChunk joined at the end, so
// that a body cut at the limit costs the limit and no more (a buffer that
// doubles as it fills would cost twice that, half of it garbage).
func readLimited(r io.Reader, length int64) ([]byte, error) {
	if length >= 0 {
		buf := make([]byte, length)
		if _, err := io.ReadFull(r, buf); err != nil {
			if err == io.ErrUnexpectedEOF {
				err = io.EOF
			}
			return nil, err
		}
		return buf, nil
	}
	var pieces [][]byte
	total := 0
	for {
		p := make([]byte, readChunk)
		n, err := io.ReadFull(r, p)
		pieces = append(pieces, p[:n])
		total += n
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if len(pieces) == 1 {
		return pieces[0], nil
	}
	return bytes.Join(pieces, nil), nil
}

func tooLarge(n, limit int64) string {
	size := "more than"
	if n >= 0 {
		size = fmt.Sprintf("%d bytes, more than", n)
	}
	return fmt.Sprintf("daybook proxy: the request's body is %s the %d MiB the proxy reads (proxy.max_body_mib)", size, limit>>20)
}

// describeJSON names what a body that is not an object holds.
func describeJSON(data []byte) string {
	if len(data) == 0 {
		return "empty"
	}
	switch c := data[0]; {
	case c == 'n':
		return "null"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == '-' || (c >= '0' && c <= '9'):
		return "a number"
	}
	return "JSON"
}

// idleBody is a passed-through request's body: each read that brings
// bytes pushes the read deadline on by d, so a body that stops coming is
// cut after d while an upload that keeps coming (a model's blob) goes on
// for as long as it takes; the end of the body lifts the deadline.
type idleBody struct {
	io.ReadCloser
	rc *http.ResponseController
	d  time.Duration
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	switch {
	case err == io.EOF:
		b.rc.SetReadDeadline(time.Time{})
	case err == nil && n > 0:
		b.rc.SetReadDeadline(time.Now().Add(b.d))
	}
	return n, err
}
