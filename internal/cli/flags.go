package cli

import (
	"errors"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
)

// CheckRange checks --from and --to before they are sent, so that a bad one
// is named by its flag: the service, which socket and MCP clients call too,
// names the request's fields. e must be loaded.
func (e *Env) CheckRange(from, to string) error {
	_, err := date.ParseRangeArgs(from, to, date.Of(time.Now().In(e.Cfg.Location())))
	var re *date.RangeError
	if errors.As(err, &re) {
		return Usagef("%s", re.Named("--from", "--to"))
	}
	if err != nil {
		return Usagef("%v", err)
	}
	return nil
}
