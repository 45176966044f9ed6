package main

import (
	"strings"
)

// flagNamed returns err with the request fields it names ("strict: …",
// "…; strict: …") called by their flags ("--strict: …"): the service names
// fields, as its socket and MCP clients know them. The error still
// unwraps to err.
func flagNamed(err error, fields ...string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	for _, f := range fields {
		if rest, ok := strings.CutPrefix(msg, f+": "); ok {
			msg = "--" + f + ": " + rest
		}
		msg = strings.ReplaceAll(msg, "; "+f+": ", "; --"+f+": ")
	}
	if msg == err.Error() {
		return err
	}
	return &flagError{msg: msg, err: err}
}

type flagError struct {
	msg string
	err error
}

func (e *flagError) Error() string { return e.msg }
func (e *flagError) Unwrap() error { return e.err }
