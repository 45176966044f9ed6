package main

import (
	"errors"
	"strings"
	"time"

	"github.com/daybook/daybook/internal/util/date"
)

// checkRange checks --from and --to before they are sent, so that a bad one
// is named by its flag: the service, which socket and MCP clients call too,
// names the request's fields. e must be loaded.
func (e *env) checkRange(from, to string) error {
	_, err := date.ParseRangeArgs(from, to, date.Of(time.Now().In(e.cfg.Location())))
	var re *date.RangeError
	if errors.As(err, &re) {
		return errors.New(re.Named("--from", "--to"))
	}
	return err
}

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
