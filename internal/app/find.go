package app

import (
	"context"
	"errors"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/dayfind"
)

// Find is the linear scan over the day files in a range, newest first
// (package dayfind, which the front runs too when no daemon answers).
func (lk *Lookup) Find(ctx context.Context, req daybook.FindRequest) (daybook.FindResponse, error) {
	resp, err := dayfind.Find(lk.dir, lk.Today(), lk.log, req)
	if re := (*dayfind.RequestError)(nil); errors.As(err, &re) {
		return resp, userErr(re.Err)
	}
	return resp, err
}
