package app

import (
	"errors"
	"fmt"

	"github.com/daybook/daybook"
)

// UserError is an error in what the caller asked for (a bad date, an empty
// text), as opposed to a failure of daybook's; the socket API answers it
// with a 4xx status and its code (daybook.CodeOf), and the CLI with exit code 2
// for a usage error, 1 for the others (a thing not found, bad input).
type UserError struct {
	Err   error
	Code  daybook.Code // daybook.CodeUsage when ""
	Field string       // the request field at fault, when one is: a caller names it in its own words (the CLI by its flag)
}

func (e *UserError) Error() string { return e.Err.Error() }
func (e *UserError) Unwrap() error { return e.Err }

// APICode is the error's code in the API: daybook.Coded.
func (e *UserError) APICode() daybook.Code {
	if e.Code == "" {
		return daybook.CodeUsage
	}
	return e.Code
}

// APIField is the request field at fault, or "".
func (e *UserError) APIField() string { return e.Field }

var _ daybook.Coded = (*UserError)(nil)

// userErr wraps err as a UserError.
func userErr(err error) error {
	if err == nil {
		return nil
	}
	return &UserError{Err: err}
}

func userErrf(format string, args ...any) error { return &UserError{Err: fmt.Errorf(format, args...)} }

// notFoundf is a UserError for something the request names that is not there.
func notFoundf(format string, args ...any) error {
	return &UserError{Err: fmt.Errorf(format, args...), Code: daybook.CodeNotFound}
}

// badInputf is a UserError for input the request carries that is wrong
// (an import's lines), as opposed to the request itself; field is the
// request field that made it an error ("strict"), or "".
func badInputf(field, format string, args ...any) error {
	return &UserError{Err: fmt.Errorf(format, args...), Code: daybook.CodeBadInput, Field: field}
}

// IsUserError reports whether err is the caller's fault.
func IsUserError(err error) bool {
	var u *UserError
	return errors.As(err, &u)
}
