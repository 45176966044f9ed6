package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"unicode/utf8"
)

// errorBody is every error answer: the message, and what the operation had
// done before it failed (an import's rejected lines) when it did anything.
type errorBody struct {
	Error  string          `json:"error"`
	Result json.RawMessage `json:"result,omitempty"`
}

// checker is a request that can tell it is malformed before any work.
type checker interface{ check() error }

// jsonHandler serves fn: the request body, at most MaxBody bytes of one JSON
// object with no unknown fields (an empty body is the zero request), goes
// in; the response or {"error": ...} comes out. Adding an endpoint is one
// Handle line with jsonHandler over the method.
func jsonHandler[Req, Resp any](s *Server, fn func(context.Context, Req) (Resp, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req Req
		if r.Method != http.MethodGet {
			if status, err := decodeBody(w, r, &req); err != nil {
				writeError(w, status, err.Error(), nil)
				return
			}
		}
		if c, ok := any(req).(checker); ok {
			if err := c.check(); err != nil {
				writeError(w, http.StatusBadRequest, err.Error(), nil)
				return
			}
		}
		resp, err := fn(r.Context(), req)
		s.respond(w, r, resp, err)
	})
}

// decodeBody reads one JSON value into v and returns the status to answer
// when it cannot.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) (int, error) {
	body := http.MaxBytesReader(w, r.Body, MaxBody)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if _, err = dec.Token(); err == nil {
			return http.StatusBadRequest, errors.New("request body: more than one JSON value")
		}
		if errors.Is(err, io.EOF) {
			return 0, nil
		}
	}
	var tooBig *http.MaxBytesError
	switch {
	case errors.Is(err, io.EOF):
		return 0, nil // no body: the zero request
	case errors.As(err, &tooBig):
		return http.StatusRequestEntityTooLarge, fmt.Errorf("request body: over the limit of %d bytes (1 MiB)", tooBig.Limit)
	default:
		return http.StatusBadRequest, fmt.Errorf("request body: bad JSON: %v", strings.TrimPrefix(err.Error(), "json: "))
	}
}

// respond writes resp, or err with the status it deserves.
func (s *Server) respond(w http.ResponseWriter, r *http.Request, resp any, err error) {
	if err == nil {
		writeJSON(w, http.StatusOK, resp)
		return
	}
	status := http.StatusInternalServerError
	switch {
	case s.opts.IsUserError(err):
		status = http.StatusBadRequest
	case r.Context().Err() != nil:
		status = http.StatusServiceUnavailable // the caller left; nobody reads this
	default:
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	var partial json.RawMessage
	if v := reflect.ValueOf(resp); v.IsValid() && !v.IsZero() {
		partial, _ = json.Marshal(resp)
	}
	writeError(w, status, err.Error(), partial)
}

func writeError(w http.ResponseWriter, status int, msg string, partial json.RawMessage) {
	writeJSON(w, status, errorBody{Error: msg, Result: partial})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		json.NewEncoder(&buf).Encode(errorBody{Error: fmt.Sprintf("encoding the answer: %v", err)})
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// checkQuery refuses an overlong, empty or blank query before any work,
// naming the field, its length and the limit.
func checkQuery(field, q string) error {
	switch {
	case len(q) > MaxQuery:
		return fmt.Errorf("%s is %d bytes, over the limit of %d", field, len(q), MaxQuery)
	case strings.TrimSpace(q) == "":
		return fmt.Errorf("%s is empty or only spaces", field)
	case !utf8.ValidString(q):
		return fmt.Errorf("%s is not UTF-8", field)
	}
	return nil
}

func (r RecallRequest) check() error { return checkQuery("query", r.Query) }

// check refuses only an overlong pattern, in the words of dayfiles, so that
// the CLI says the same over the socket as on the files; the rest (an empty
// pattern, a bad regex) the App refuses itself, and a pattern of spaces is a
// literal like any other.
func (r FindRequest) check() error {
	if len(r.Pattern) > MaxQuery {
		return fmt.Errorf("pattern is %d bytes, over the limit of %d", len(r.Pattern), MaxQuery)
	}
	return nil
}
