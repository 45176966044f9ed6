package dayfiles

import (
	"fmt"

	"github.com/daybook/daybook/dayfiles/entrytext"
)

// MaxFileSize is the largest day file Parse reads. A day of a million tiny
// entries is about 40 MiB; anything past this is refused by name rather than
// parsed slowly in a consolidation run.
const MaxFileSize = 8 << 20

// FullAt is where a day file is full for entries of their own: an append
// that would take it past FullAt is refused with ErrDayFull unless each
// entry it adds is a stub of at most MaxStub bytes (the text kept in a rest
// file, see WriteRest), which may fill the last MiB up to MaxFileSize.
// That MiB holds a thousand stubs or more: a day that filled up still
// takes the day's entries (docs/decisions/day-limit.md).
const FullAt = MaxFileSize - 1<<20

// NearFull is the size from which doctor says a day file is near its
// limit.
const NearFull = MaxFileSize * 3 / 4

// MaxStub is the most bytes one entry may add to a full day file.
const MaxStub = 1 << 10

// ErrDayFull is entrytext.ErrDayFull: a day file past its limit.
var ErrDayFull = entrytext.ErrDayFull

// CheckSize refuses a day file of size bytes at path over MaxFileSize, with
// the one message every reader of day files gives.
func CheckSize(path string, size int64) error {
	if size > MaxFileSize {
		return fmt.Errorf("%s: %d bytes is over the %d MiB limit of a day file", path, size, MaxFileSize>>20)
	}
	return nil
}

// checkGrow refuses adding add bytes holding n entries to a day file of old
// bytes at path, as FullAt says.
func checkGrow(path string, old, add, n int) error {
	total := old + add
	if total <= FullAt || total <= MaxFileSize && add <= n*(MaxStub+2) {
		return nil
	}
	return fmt.Errorf("appending to %s: %w: it would hold %d bytes, past the %d MiB of entries a day file takes (its limit is %d MiB)",
		path, ErrDayFull, total, FullAt>>20, MaxFileSize>>20)
}
