package entrytext

import "errors"

// ErrDayFull says an append was refused because the day file is full
// (FullAt); test for it with errors.Is. The writer then keeps the entry's
// text in a rest file and appends a stub (merge.Keeper does).
var ErrDayFull = errors.New("the day file is full")
