package main

import (
	"slices"
	"strings"

	"github.com/daybook/daybook"
)

// flagNamed returns err, when the request field at fault (daybook.FieldOf,
// on the files or over the socket) is one of fields, with that field called
// by its flag ("strict: …" and "…; strict: …" become "--strict: …"): the
// service names fields, as its socket and MCP clients know them. The error
// still unwraps to err.
func flagNamed(err error, fields ...string) error {
	f := daybook.FieldOf(err)
	if f == "" || !slices.Contains(fields, f) {
		return err
	}
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, f+": "); ok {
		msg = "--" + f + ": " + rest
	}
	msg = strings.ReplaceAll(msg, "; "+f+": ", "; --"+f+": ")
	return &flagError{msg: msg, err: err}
}

type flagError struct {
	msg string
	err error
}

func (e *flagError) Error() string { return e.msg }
func (e *flagError) Unwrap() error { return e.err }
