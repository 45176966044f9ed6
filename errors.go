package daybook

import (
	"errors"

	"github.com/daybook/daybook/dayfiles/date"
)

// Code says what kind of error an answer is, in words a program can test:
// the socket API sends it in every error body, {"error": {"code": ...}},
// and the Client returns it as an *Error, so that no caller matches an
// error's text.
type Code string

// The codes. A caller's mistake is usage, outside_window, not_found or
// bad_input;
// the rest are the daemon's or the transport's.
const (
	CodeUsage         Code = "usage"          // a field of the request is wrong (a bad date, an empty text, malformed JSON): 400
	CodeOutsideWindow Code = "outside_window" // a date outside the accepted window (the config's dates section): 400
	CodeNotFound      Code = "not_found"      // the request names something that is not there (an entry id, a topic): 404
	CodeBadInput      Code = "bad_input"      // what the request carries is wrong (an import's lines): 422
	CodeTooLarge      Code = "too_large"      // the body is over MaxBody: 413
	CodeNoEndpoint    Code = "no_endpoint"    // no such path: 404
	CodeBadMethod     Code = "bad_method"     // the path does not take the method: 405
	CodeOtherDir      Code = "other_dir"      // the request's X-Daybook-Dir is not the daemon's data dir: 409
	CodeBusy          Code = "busy"           // the same work is under way already (a consolidation, the daemon's backfill): 409
	CodeInternal      Code = "internal"       // daybook failed: 500
	CodeUnavailable   Code = "unavailable"    // the caller left before the answer: 503
)

// status is the HTTP status each code is answered with, as numbers: this
// package does not import net/http, which the front (cmd/daybook) links
// none of.
var status = map[Code]int{
	CodeUsage:         400, // Bad Request
	CodeOutsideWindow: 400,
	CodeNotFound:      404, // Not Found
	CodeBadInput:      422, // Unprocessable Entity
	CodeTooLarge:      413, // Request Entity Too Large
	CodeNoEndpoint:    404,
	CodeBadMethod:     405, // Method Not Allowed
	CodeOtherDir:      409, // Conflict
	CodeBusy:          409,
	CodeInternal:      500, // Internal Server Error
	CodeUnavailable:   503, // Service Unavailable
}

// Status returns the HTTP status the API answers c with.
func (c Code) Status() int {
	if s, ok := status[c]; ok {
		return s
	}
	return 500
}

// UserFault reports whether c blames the request.
func (c Code) UserFault() bool {
	return c == CodeUsage || c == CodeOutsideWindow || c == CodeNotFound || c == CodeBadInput
}

// Error is an error with a code: the API's error body, and what the Client
// returns for one (errors.As(err, &*daybook.Error)).
type Error struct {
	Code    Code   `json:"code"`
	Field   string `json:"field,omitempty"` // the request's field at fault, when one is
	Message string `json:"message"`         // the daemon's words, as the App says them
	Status  int    `json:"-"`               // the HTTP status it came with (Client only)
}

func (e *Error) Error() string { return e.Message }

// UserFault reports whether the error blames the request.
func (e *Error) UserFault() bool { return e.Code.UserFault() }

// Coded is an error that knows its code and, maybe, the request field at
// fault: the App's errors for a caller's mistake are.
type Coded interface {
	error
	APICode() Code
	APIField() string
}

// CodeOf returns err's code: an *Error's or a Coded error's own, usage for
// a date outside the window, internal for anything else (and "" for nil).
func CodeOf(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	if errors.Is(err, date.ErrOutsideWindow) {
		return CodeOutsideWindow
	}
	var c Coded
	if errors.As(err, &c) {
		return c.APICode()
	}
	return CodeInternal
}

// FieldOf returns the request field err blames, or "".
func FieldOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Field
	}
	var c Coded
	if errors.As(err, &c) {
		return c.APIField()
	}
	return ""
}
