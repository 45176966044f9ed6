package app

import (
	"errors"
	"fmt"
)

// UserError is an error in what the caller asked for (a bad date, an empty
// text), as opposed to a failure of daybook's; the socket API answers it
// with a 4xx status and the CLI with exit code 1 and no stack of causes.
type UserError struct{ Err error }

func (e *UserError) Error() string { return e.Err.Error() }
func (e *UserError) Unwrap() error { return e.Err }

// userErr wraps err as a UserError.
func userErr(err error) error {
	if err == nil {
		return nil
	}
	return &UserError{err}
}

func userErrf(format string, args ...any) error { return &UserError{fmt.Errorf(format, args...)} }

// IsUserError reports whether err is the caller's fault.
func IsUserError(err error) bool {
	var u *UserError
	return errors.As(err, &u)
}
