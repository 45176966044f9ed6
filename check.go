package daybook

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/daybook/daybook/dayfiles/date"
)

// MaxQuery is the longest recall query or find pattern, in bytes.
const MaxQuery = 4 << 10

// fieldError is a caller's mistake in field.
func fieldError(field, msg string) *Error { return &Error{Code: CodeUsage, Field: field, Message: msg} }

// checkQuery refuses an overlong, empty or blank query before any work,
// naming the field, its length and the limit.
func checkQuery(field, q string) error {
	if err := checkQueryLen(field, q); err != nil {
		return err
	}
	switch {
	case strings.TrimSpace(q) == "":
		return fieldError(field, fmt.Sprintf("%s is empty or only spaces", field))
	case !utf8.ValidString(q):
		return fieldError(field, fmt.Sprintf("%s is not UTF-8", field))
	}
	return nil
}

// checkQueryLen refuses a query or pattern over MaxQuery bytes.
func checkQueryLen(field, q string) error {
	if len(q) > MaxQuery {
		return fieldError(field, fmt.Sprintf("%s is %d bytes, over the limit of %d", field, len(q), MaxQuery))
	}
	return nil
}

// Check refuses an overlong, empty or blank query.
func (r RecallRequest) Check() error { return checkQuery("query", r.Query) }

// Check refuses only an overlong pattern, in the words of dayfiles, so that
// the CLI says the same over the socket as on the files; the rest (an empty
// pattern, a bad regex) the App refuses itself, and a pattern of spaces is a
// literal like any other.
func (r FindRequest) Check() error { return checkQueryLen("pattern", r.Pattern) }

// CheckFields refuses what recall cannot take, naming it: a query over
// MaxQuery bytes, a limit, a level or a mode out of its set. An empty or
// blank query passes (it recalls nothing); Check refuses it at the socket.
func (r RecallRequest) CheckFields() error {
	if err := checkQueryLen("query", r.Query); err != nil {
		return err
	}
	if r.Limit < 0 || r.Limit > MaxRecallLimit {
		return fieldError("limit", fmt.Sprintf("limit %d: want 1 to %d", r.Limit, MaxRecallLimit))
	}
	switch date.Level(r.Level) {
	case "", date.LevelYear, date.LevelMonth, date.LevelDay, date.LevelEntry, date.LevelLine:
	default:
		return fieldError("level", fmt.Sprintf("level %q: want year, month, day, entry or line", r.Level))
	}
	switch r.Mode {
	case "", ModeDrill, ModeBM25, ModeVector, ModeLinear:
	default:
		return fieldError("mode", fmt.Sprintf("mode %q: want drill, bm25, vector or linear", r.Mode))
	}
	return nil
}
