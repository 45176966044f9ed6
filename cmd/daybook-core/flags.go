package main

import (
	"errors"
	"time"

	"github.com/daybook/daybook/date"
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
