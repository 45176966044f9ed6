package daybook

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxQuery is the longest recall query or find pattern, in bytes.
const MaxQuery = 4 << 10

// usage is a caller's mistake in field.
func usage(field, msg string) *Error { return &Error{Code: CodeUsage, Field: field, Message: msg} }

// checkQuery refuses an overlong, empty or blank query before any work,
// naming the field, its length and the limit.
func checkQuery(field, q string) error {
	if err := checkQueryLen(field, q); err != nil {
		return err
	}
	switch {
	case strings.TrimSpace(q) == "":
		return usage(field, fmt.Sprintf("%s is empty or only spaces", field))
	case !utf8.ValidString(q):
		return usage(field, fmt.Sprintf("%s is not UTF-8", field))
	}
	return nil
}

// checkQueryLen refuses a query or pattern over MaxQuery bytes.
func checkQueryLen(field, q string) error {
	if len(q) > MaxQuery {
		return usage(field, fmt.Sprintf("%s is %d bytes, over the limit of %d", field, len(q), MaxQuery))
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
