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
	"strconv"
	"strings"

	"github.com/daybook/daybook"
)

// errorBody is every error answer: the error with its code, and what the
// operation had done before it failed (an import's rejected lines) when it
// did anything.
type errorBody struct {
	Error  *daybook.Error  `json:"error"`
	Result json.RawMessage `json:"result,omitempty"`
}

// checker is a request that can tell it is malformed before any work.
type checker interface{ Check() error }

// jsonHandler serves fn: the request body, at most MaxBody bytes of one JSON
// object with no unknown fields (an empty body is the zero request), goes
// in; the response or {"error": {"code": ..., "message": ...}} comes out.
// Adding an endpoint is one Handle line with jsonHandler over the method.
func jsonHandler[Req, Resp any](s *Server, fn func(context.Context, Req) (Resp, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req Req
		if r.Method != http.MethodGet {
			if err := decodeBody(w, r, &req); err != nil {
				writeError(w, err, nil)
				return
			}
		}
		if c, ok := any(req).(checker); ok {
			if err := c.Check(); err != nil {
				writeError(w, asError(err), nil)
				return
			}
		}
		resp, err := fn(r.Context(), req)
		s.respond(w, r, resp, err)
	})
}

// decodeBody reads one JSON value into v, or says what is wrong with the
// body in the API's words: the field and the value, never a Go type.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) *daybook.Error {
	body := http.MaxBytesReader(w, r.Body, MaxBody)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if _, err = dec.Token(); err == nil {
			return usage("", "request body: more than one JSON value")
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
	}
	var (
		tooBig  *http.MaxBytesError
		syntax  *json.SyntaxError
		badType *json.UnmarshalTypeError
	)
	switch {
	case errors.Is(err, io.EOF):
		return nil // no body: the zero request
	case errors.As(err, &tooBig):
		return &daybook.Error{Code: daybook.CodeTooLarge, Message: fmt.Sprintf("request body: over the limit of %d bytes (1 MiB)", tooBig.Limit)}
	case errors.As(err, &syntax):
		return usage("", fmt.Sprintf("request body: bad JSON at byte %d: %s", syntax.Offset, strings.TrimPrefix(syntax.Error(), "json: ")))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return usage("", "request body: bad JSON: it ends before the object does")
	case errors.As(err, &badType):
		what := fieldName(badType.Field)
		if isList(reflect.TypeOf(v).Elem(), badType.Field) && !isList(badType.Type, "") {
			what = "an item of " + what
		}
		return usage(badType.Field, fmt.Sprintf("request body: bad JSON: %s is %s, want %s", what, badType.Value, jsonKind(badType.Type)))
	}
	// encoding/json has no type for an unknown field; its message is
	// `json: unknown field "name"`.
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		field, _ := strconv.Unquote(name)
		msg := fmt.Sprintf("request body: bad JSON: unknown field %s", name)
		if known := jsonFields(reflect.TypeOf(v).Elem()); len(known) > 0 {
			msg += fmt.Sprintf(" (%s takes %s)", r.URL.Path, strings.Join(known, ", "))
		}
		return usage(field, msg)
	}
	return usage("", fmt.Sprintf("request body: bad JSON: %v", strings.TrimPrefix(err.Error(), "json: ")))
}

func usage(field, msg string) *daybook.Error {
	return &daybook.Error{Code: daybook.CodeUsage, Field: field, Message: msg}
}

// fieldName is a JSON field path as docs/api.md writes it, or "the body"
// for the whole.
func fieldName(path string) string {
	if path == "" {
		return "the body"
	}
	return path
}

// isList reports whether the field of struct t at JSON name field (t
// itself for "") is a list.
func isList(t reflect.Type, field string) bool {
	if field != "" {
		if t.Kind() != reflect.Struct {
			return false
		}
		f, ok := structField(t, field)
		if !ok {
			return false
		}
		t = f.Type
	}
	return t.Kind() == reflect.Slice || t.Kind() == reflect.Array
}

// structField returns the field of t whose JSON name is name.
func structField(t reflect.Type, name string) (reflect.StructField, bool) {
	for f := range t.Fields() {
		if n, _, _ := strings.Cut(f.Tag.Get("json"), ","); n == name || n == "" && f.Name == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// jsonKind names what a Go type holds in JSON's words.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "a whole number"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number, 0 or more"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "another type"
}

// jsonFields lists the JSON names of struct type t's fields.
func jsonFields(t reflect.Type) []string {
	if t.Kind() != reflect.Struct {
		return nil
	}
	var names []string
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		names = append(names, name)
	}
	return names
}

// respond writes resp, or err with its code and the status it deserves.
func (s *Server) respond(w http.ResponseWriter, r *http.Request, resp any, err error) {
	if err == nil {
		writeJSON(w, http.StatusOK, resp)
		return
	}
	e := asError(err)
	switch {
	case e.Code == daybook.CodeInternal && s.opts.IsUserError(err):
		e.Code = daybook.CodeUsage
	case e.Code == daybook.CodeInternal && r.Context().Err() != nil:
		e.Code = daybook.CodeUnavailable // the caller left; nobody reads this
	case e.Code == daybook.CodeInternal:
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	var partial json.RawMessage
	if v := reflect.ValueOf(resp); v.IsValid() && !v.IsZero() {
		partial, _ = json.Marshal(resp)
	}
	writeError(w, e, partial)
}

// writeError answers e, with its code's status, and what the operation
// did before it failed (partial) if anything.
func writeError(w http.ResponseWriter, e *daybook.Error, partial json.RawMessage) {
	writeJSON(w, e.Code.Status(), errorBody{Error: e, Result: partial})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		json.NewEncoder(&buf).Encode(errorBody{Error: &daybook.Error{Code: daybook.CodeInternal, Message: fmt.Sprintf("encoding the answer: %v", err)}})
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// asError returns err as the API answers it.
func asError(err error) *daybook.Error {
	code := daybook.CodeOf(err)
	return &daybook.Error{Code: code, Field: daybook.FieldOf(err), Message: err.Error(), Status: code.Status()}
}
